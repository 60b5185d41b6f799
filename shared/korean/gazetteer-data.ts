// The shipped gazetteer: countries, Korean regions and districts, and the world cities K-pop tours
// visit, each in Korean, English and Japanese, with the place it lies in. One place a line:
//   kind ; Korean names ; English names ; Japanese names ; the Korean name of the place it lies in
// The first Korean name is the form titles and addresses use; names are separated by `|`.
// (docs/search.md, "Entities and places").
export const GAZETTEER = `
# countries
country ; 대한민국 | 한국 | 남한 ; korea | south korea | republic of korea ; 韓国 | かんこく | カンコク ;
country ; 일본 ; japan ; 日本 | にほん | にっぽん ;
country ; 미국 ; usa | us | united states | america ; アメリカ | 米国 ;
country ; 태국 ; thailand ; タイ ;
country ; 대만 | 타이완 ; taiwan ; 台湾 | タイワン ;
country ; 중국 ; china ; 中国 | チュウゴク ;
country ; 홍콩 ; hong kong | hongkong ; 香港 | ホンコン ;
country ; 마카오 ; macau | macao ; マカオ ;
country ; 싱가포르 | 싱가폴 ; singapore ; シンガポール ;
country ; 말레이시아 ; malaysia ; マレーシア ;
country ; 인도네시아 ; indonesia ; インドネシア ;
country ; 필리핀 ; philippines ; フィリピン ;
country ; 베트남 ; vietnam ; ベトナム ;
country ; 캐나다 ; canada ; カナダ ;
country ; 멕시코 ; mexico ; メキシコ ;
country ; 브라질 ; brazil ; ブラジル ;
country ; 칠레 ; chile ; チリ ;
country ; 영국 ; uk | united kingdom | england | britain ; イギリス | 英国 ;
country ; 프랑스 ; france ; フランス ;
country ; 독일 ; germany ; ドイツ ;
country ; 네덜란드 ; netherlands | holland ; オランダ ;
country ; 스페인 ; spain ; スペイン ;
country ; 이탈리아 ; italy ; イタリア ;
country ; 호주 | 오스트레일리아 ; australia ; オーストラリア | 豪州 ;
# Korean regions
region ; 서울 | 서울특별시 | 서울시 ; seoul ; ソウル ; 대한민국
region ; 부산 | 부산광역시 | 부산시 ; busan | pusan ; 釜山 | プサン ; 대한민국
region ; 인천 | 인천광역시 | 인천시 ; incheon ; 仁川 | インチョン ; 대한민국
region ; 대구 | 대구광역시 | 대구시 ; daegu ; 大邱 | テグ ; 대한민국
region ; 대전 | 대전광역시 | 대전시 ; daejeon ; 大田 | テジョン ; 대한민국
region ; 광주 | 광주광역시 | 광주시 ; gwangju ; 光州 | クァンジュ ; 대한민국
region ; 울산 | 울산광역시 ; ulsan ; 蔚山 | ウルサン ; 대한민국
region ; 세종 | 세종특별자치시 ; sejong ; 世宗 | セジョン ; 대한민국
region ; 경기 | 경기도 ; gyeonggi ; 京畿道 | キョンギ ; 대한민국
region ; 강원 | 강원도 | 강원특별자치도 ; gangwon ; 江原道 | カンウォン ; 대한민국
region ; 충북 | 충청북도 ; chungbuk | north chungcheong ; 忠清北道 ; 대한민국
region ; 충남 | 충청남도 ; chungnam | south chungcheong ; 忠清南道 ; 대한민국
region ; 전북 | 전라북도 | 전북특별자치도 ; jeonbuk | north jeolla ; 全羅北道 ; 대한민국
region ; 전남 | 전라남도 ; jeonnam | south jeolla ; 全羅南道 ; 대한민국
region ; 경북 | 경상북도 ; gyeongbuk | north gyeongsang ; 慶尚北道 ; 대한민국
region ; 경남 | 경상남도 ; gyeongnam | south gyeongsang ; 慶尚南道 ; 대한민국
region ; 제주 | 제주도 | 제주특별자치도 ; jeju ; 済州 | チェジュ ; 대한민국
region ; 수원 | 수원시 ; suwon ; 水原 | スウォン ; 경기
region ; 고양 | 고양시 | 일산 ; goyang | ilsan ; 高陽 | コヤン ; 경기
# Seoul's districts and the neighbourhoods fans name
district ; 강남구 | 강남 ; gangnam ; 江南 | カンナム ; 서울
district ; 송파구 | 송파 | 잠실 ; songpa | jamsil ; 蚕室 | チャムシル ; 서울
district ; 마포구 | 마포 | 홍대 ; mapo | hongdae ; 弘大 | ホンデ ; 서울
district ; 영등포구 | 영등포 | 여의도 ; yeongdeungpo | yeouido ; 汝矣島 | ヨイド ; 서울
district ; 중구 | 명동 ; myeongdong ; 明洞 | ミョンドン ; 서울
district ; 성동구 | 성동 | 성수 ; seongdong | seongsu ; 聖水 | ソンス ; 서울
district ; 광진구 | 광진 | 건대 ; gwangjin ; 広津 ; 서울
district ; 용산구 | 용산 | 이태원 ; yongsan | itaewon ; 龍山 | 梨泰院 | イテウォン ; 서울
district ; 서대문구 | 서대문 | 신촌 ; seodaemun | sinchon ; 新村 | シンチョン ; 서울
district ; 동대문구 | 동대문 ; dongdaemun ; 東大門 | トンデムン ; 서울
district ; 종로구 | 종로 ; jongno ; 鍾路 | チョンノ ; 서울
district ; 성북구 | 성북 ; seongbuk ; 城北 ; 서울
district ; 동작구 | 동작 | 흑석 ; dongjak ; 銅雀 ; 서울
district ; 서초구 | 서초 ; seocho ; 瑞草 ; 서울
district ; 강서구 | 강서 | 마곡 ; gangseo | magok ; 江西 ; 서울
district ; 구로구 | 구로 ; guro ; 九老 ; 서울
district ; 노원구 | 노원 ; nowon ; 蘆原 ; 서울
district ; 압구정 | 압구정동 ; apgujeong ; 狎鴎亭 | アックジョン ; 서울
district ; 금정구 | 금정 ; geumjeong ; 金井 ; 부산
district ; 해운대구 | 해운대 ; haeundae ; 海雲台 | ヘウンデ ; 부산
district ; 미추홀구 | 미추홀 ; michuhol ; 弥鄒忽 ; 인천
district ; 연수구 | 송도 ; songdo ; 松島 ; 인천
# world cities of tours
city ; 도쿄 | 동경 ; tokyo ; 東京 | とうきょう | トウキョウ ; 일본
city ; 오사카 ; osaka ; 大阪 | おおさか | オオサカ ; 일본
city ; 나고야 ; nagoya ; 名古屋 | なごや ; 일본
city ; 후쿠오카 ; fukuoka ; 福岡 | ふくおか ; 일본
city ; 삿포로 ; sapporo ; 札幌 | さっぽろ ; 일본
city ; 요코하마 ; yokohama ; 横浜 | よこはま ; 일본
city ; 사이타마 ; saitama ; 埼玉 | さいたま ; 일본
city ; 고베 ; kobe ; 神戸 | こうべ ; 일본
city ; 방콕 ; bangkok ; バンコク ; 태국
city ; 타이베이 | 타이페이 ; taipei ; 台北 | タイペイ ; 대만
city ; 가오슝 ; kaohsiung ; 高雄 ; 대만
city ; 상하이 | 상해 ; shanghai ; 上海 | シャンハイ ; 중국
city ; 베이징 | 북경 ; beijing ; 北京 | ペキン ; 중국
city ; 쿠알라룸푸르 ; kuala lumpur ; クアラルンプール ; 말레이시아
city ; 자카르타 ; jakarta ; ジャカルタ ; 인도네시아
city ; 마닐라 ; manila ; マニラ ; 필리핀
city ; 호치민 | 호찌민 ; ho chi minh | saigon ; ホーチミン ; 베트남
city ; 하노이 ; hanoi ; ハノイ ; 베트남
city ; 로스앤젤레스 | 엘에이 ; los angeles | la ; ロサンゼルス ; 미국
city ; 뉴욕 ; new york | nyc ; ニューヨーク ; 미국
city ; 뉴어크 ; newark ; ニューアーク ; 미국
city ; 시카고 ; chicago ; シカゴ ; 미국
city ; 애틀랜타 ; atlanta ; アトランタ ; 미국
city ; 댈러스 | 달라스 ; dallas ; ダラス ; 미국
city ; 휴스턴 ; houston ; ヒューストン ; 미국
city ; 샌프란시스코 ; san francisco ; サンフランシスコ ; 미국
city ; 오클랜드 ; oakland ; オークランド ; 미국
city ; 시애틀 ; seattle ; シアトル ; 미국
city ; 라스베이거스 | 라스베가스 ; las vegas ; ラスベガス ; 미국
city ; 워싱턴 ; washington ; ワシントン ; 미국
city ; 토론토 ; toronto ; トロント ; 캐나다
city ; 밴쿠버 ; vancouver ; バンクーバー ; 캐나다
city ; 멕시코시티 ; mexico city ; メキシコシティ ; 멕시코
city ; 상파울루 ; sao paulo ; サンパウロ ; 브라질
city ; 산티아고 ; santiago ; サンティアゴ ; 칠레
city ; 런던 ; london ; ロンドン ; 영국
city ; 파리 ; paris ; パリ ; 프랑스
city ; 베를린 ; berlin ; ベルリン ; 독일
city ; 프랑크푸르트 ; frankfurt ; フランクフルト ; 독일
city ; 암스테르담 ; amsterdam ; アムステルダム ; 네덜란드
city ; 마드리드 ; madrid ; マドリード ; 스페인
city ; 바르셀로나 ; barcelona ; バルセロナ ; 스페인
city ; 밀라노 ; milan | milano ; ミラノ ; 이탈리아
city ; 시드니 ; sydney ; シドニー ; 호주
city ; 멜버른 ; melbourne ; メルボルン ; 호주
`;
