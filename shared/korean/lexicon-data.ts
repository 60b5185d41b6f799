// The bilingual lexicon every installation knows: the words fans use for schedules, Korean and
// English, with their usual spellings. One group a line, `term <=> term | term`: every term of a
// line is the same word; the first is the form titles use, Latin where titles write it so (`DAY 2`,
// `EP.45`, `OST Part.2`); Japanese terms last (docs/search.md, "The lexicon"). The
// administrators' dictionary takes lines of the same form (shared/korean/lexicon.ts).
export const DEFAULT_LEXICON = `
# platforms and broadcasts
인스타그램 라이브 <=> instagram live | insta live | 인스타 라이브 | ig live | インスタライブ
인스타그램 <=> instagram | insta | 인스타그람 | 인스타 | インスタグラム | インスタ
유튜브 <=> youtube | 유투브
위버스 <=> weverse
트위터 <=> twitter
브이로그 <=> vlog
라이브 <=> live | 라이브 방송 | ライブ | ライヴ | 生配信
라디오 <=> radio | 래디오 | ラジオ
방송 <=> broadcast
생방송 <=> live broadcast | 생방
음악방송 <=> music show
무대 <=> stage | performance | music show | music program | ステージ
컴백 <=> comeback | come back | 컴벡 | カムバック
데뷔 <=> debut | 데뷰 | 대뷔 | デビュー
주년 <=> anniversary | anniv
게스트 <=> guest | 개스트
출연 <=> appearance | guest appearance
예능 <=> variety show | variety | バラエティ
드라마 <=> drama
퀴즈쇼 <=> quiz show | 퀴즈 쇼
시상식 <=> awards ceremony | award show | awards
어워즈 <=> awards | award | 어워드
레드카펫 <=> red carpet | 레드 카펫
K-POP <=> 케이팝 | kpop | k pop
DAY <=> 데이
# releases
발매 <=> release | released | 発売 | リリース
음원 <=> digital release | 음원 공개
싱글 <=> single | シングル
디지털 싱글 <=> digital single
앨범 <=> album | 엘범 | アルバム
ver <=> 버전 | version | 버젼
Part <=> 파트
EP <=> 에피소드 | episode | 이피 | 에피
Japanese <=> 재패니즈 | 제페니즈
선공개 <=> pre-release | prerelease
OST <=> 오에스티 | soundtrack | 사운드트랙
MV <=> music video | 뮤직비디오 | 엠브이 | 뮤비 | ミュージックビデオ
티저 <=> teaser | 티져
비하인드 <=> behind | behind the scenes | making
메이킹 <=> making film
하이라이트 <=> highlight | 하이라이트 메들리
Dance Practice <=> 댄스 프랙티스 | 안무 영상 | 안무영상 | 연습 영상 | choreography video
챌린지 <=> challenge | 첼린지 | 챌린쥐 | チャレンジ
직캠 <=> fancam | fan cam
# events
팬미팅 <=> fan meeting | fanmeeting | fan meet | fanmeet | 팬밋 | ファンミーティング | ファンミ
팬사인회 <=> fansign | fan sign | fansigning | fan signing | 팬싸인회 | サイン会
영상통화 <=> video call | videocall
쇼케이스 <=> showcase | 쑈케이스 | 쇼캐이스 | ショーケース
콘서트 <=> concert | 콘써트 | 컨서트 | コンサート
팬콘서트 <=> fan concert | fancon | 팬콘
페스티벌 <=> festival | 페스티발 | 패스티벌 | フェスティバル | フェス
축제 <=> festival | campus festival
대동제 <=> university festival
축하공연 <=> celebration performance | 축하 공연
팝업스토어 <=> popup store | pop-up store | popup | 팝업 스토어 | 팝업스토아
팬클럽 <=> fan club | fanclub | 팬 클럽 | ファンクラブ
모집 <=> recruitment | recruiting | recruit
티켓 오픈 <=> ticket open | tickets open
티켓 <=> ticket | tickets | 티켓트 | チケット
예약 판매 <=> pre-order | preorder | pre order | 예판
시즌 그리팅 <=> season greetings | season's greetings | season greeting | seasons greetings | 시즌 그리팅스 | 시즌 그리팅즈 | 시즌그리팅스
생일 <=> birthday | bday | b-day | 생축 | 誕生日 | バースデー
카페 <=> cafe | café | 까페 | coffee shop | カフェ
이벤트 <=> event | 이밴트
생일 기념 카페 <=> birthday cafe | 생카
월드투어 <=> world tour | 월드 투어
투어 <=> tour | ツアー
# photos, posts, letters
셀카 <=> selfie | selca | 셀피 | 셀기
화보 <=> photoshoot | photo shoot | pictorial | グラビア
사진 <=> photo | photos | picture
업데이트 <=> update | 업뎃
손편지 <=> handwritten letter | letter | 손 편지
편지 <=> letter
스케줄 <=> schedule | 스케쥴 | 스캐줄
공개 <=> reveal | revealed
멤버 <=> member | members
팬 <=> fan | fans
매거진 <=> magazine | 메거진
# places
도쿄 <=> tokyo | 동경
방콕 <=> bangkok
오사카 <=> osaka
서울 <=> seoul
부산 <=> busan | pusan
일본 <=> japan | japanese | 일본어
`;
