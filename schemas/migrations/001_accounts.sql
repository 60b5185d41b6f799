-- Account service (auth-service.md section 2).

CREATE TABLE users (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email           text        NOT NULL,
  password        text        NOT NULL,            -- bcrypt hash, cost 10; never the password itself
  name            text        NOT NULL,            -- nickname (2.3)
  profile_url     text        NOT NULL,            -- default picture (2.4)
  email_verified  boolean     NOT NULL DEFAULT false,
  verify_token    uuid,
  verify_expires  timestamptz,
  is_admin        boolean     NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_password_is_bcrypt CHECK (password ~ '^\$2[aby]\$\d\d\$.{53}$')
);
-- One account per address whatever its letter case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_verify_token_key ON users (verify_token) WHERE verify_token IS NOT NULL;

-- Game-account links (2.2): only the owner reference is specified.
CREATE TABLE game_links (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  game        text    NOT NULL,
  account_id  text    NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_links_user_id ON game_links (user_id);

-- Nickname words (2.3).
CREATE TABLE nickname_words (
  id    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  word  text NOT NULL,
  type  text NOT NULL CHECK (type IN ('adjective', 'noun')),
  UNIQUE (word, type)
);

-- Login attempts per client IP (2.6), one scope per login route: /auth and /api/auth count separately.
CREATE TABLE login_attempts (
  scope            text        NOT NULL,
  ip               text        NOT NULL,
  failure_count    integer     NOT NULL,
  last_failure_at  timestamptz NOT NULL,
  PRIMARY KEY (scope, ip)
);

INSERT INTO nickname_words (word, type)
SELECT word, 'adjective' FROM unnest(ARRAY[
  '행복한', '용감한', '반짝이는', '상냥한', '귀여운', '씩씩한', '졸린', '배고픈', '신나는', '수줍은',
  '다정한', '엉뚱한', '느긋한', '부지런한', '명랑한', '똑똑한', '포근한', '달콤한', '시원한', '노래하는',
  '춤추는', '빛나는', '차분한', '호기심많은', '든든한', '재빠른', '조용한', '유쾌한', '따뜻한', '날쌘'
]) AS word;

INSERT INTO nickname_words (word, type)
SELECT word, 'noun' FROM unnest(ARRAY[
  '고양이', '강아지', '토끼', '다람쥐', '펭귄', '판다', '여우', '햄스터', '코알라', '수달',
  '고래', '돌고래', '부엉이', '참새', '나비', '별', '달', '구름', '무지개', '해바라기',
  '딸기', '복숭아', '귤', '마카롱', '쿠키', '푸딩', '팬', '요정', '기타', '마이크'
]) AS word;
