// Generated from the server's /api/openapi.json by `npm run generate -w sdk` (openapi-typescript).
// Do not edit: the SDK test fails when this file and the document differ.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 while the process runs and its event loop turns (the database is not asked); 503 once the embedded PostgreSQL could not be started again (the process then exits non-zero) */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 503 while starting or draining, while a readiness check fails (the database does not answer within 1.5 s), and while a bus consumer or the outbox relay of this process does not work (not for an edge-only process) */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getApiOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interactive API reference (Swagger UI, served from this server) */
        get: operations["getApiDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of the reference page (swagger-ui-bundle.js, swagger-ui.css, init.js) */
        get: operations["getApiDocsByAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register an account
         * @description R0 missing/empty → 400, R1 e-mail pattern → 400 (a bare mailbox only: no , < > ( ) : ; " [ ] \, whitespace or control characters; NFC-normalised); an invisible format character (zero-width space, joiner, BOM, soft hyphen) → 400; the domain is stored in its ASCII form by the IDNA/UTS #46 mapping (`a@ＥＸＡＭＰＬＥ.org` is `a@example.org`, as the mail is delivered), no such form → 400; R2 password under 8 characters → 400, password over 72 UTF-8 bytes → 400, more than REGISTER_LIMIT_PER_HOUR (default 20) registrations from the client address (an IPv6 client: its /64) in an hour → 429 with Retry-After, R3 e-mail registered → 409 (an unverified account whose link expired is replaced); MAIL_QUEUE_MAX mails already waiting to be sent → 503 with Retry-After, nothing stored. Sends the verification e-mail.
         */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify an e-mail address
         * @description HEAD answers with the status GET would give but verifies nothing (link scanners probe with HEAD).
         */
        get: operations["getAuthVerifyByToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @description Locked client address (5 failures, 15 minutes; the address as the API description says) → 429 naming the minutes left; missing field → 400; unknown e-mail, wrong password or a password over 72 bytes → 401 (one message, failure counted; parallel attempts never evaluate more than 5); unverified → 403. Repeated failures on one account add a wait of up to 8 s before its next comparison, never a refusal.
         */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the token belongs to (always 200)
         * @description Authorization: Bearer <token from /auth/login>
         */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a token in its last 7 days
         * @description Authorization: Bearer <token from /auth/login>. 401 when missing, invalid, expired, or the user no longer exists.
         */
        post: operations["postAuthRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log out (the client discards its token) */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete the account and its game links
         * @description Authorization: Bearer <token from /auth/login>. Missing header → 401; invalid or expired token → 500 (as specified).
         */
        delete: operations["deleteAuthDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password reset link
         * @description 202 with the same body whatever the address (no account enumeration; the lookup runs after the answer). An account of that address gets a mail with a single-use link (30 minutes; only the newest link works) to RESET_PAGE_URL or the server's page. More than ACCOUNT_MAIL_PER_CLIENT_PER_HOUR (20) such requests from the client in an hour → 429; MAIL_QUEUE_MAX mails waiting → 503. Past ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR (3) for one address the answer stays 202 and no mail is sent.
         */
        post: operations["postAuthPasswordForgot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The minimal reset page a link opens (when RESET_PAGE_URL is unset)
         * @description Reads `token` from its address and posts to /auth/password/reset.
         */
        get: operations["getAuthPasswordReset"];
        put?: never;
        /**
         * Set a new password with a reset link
         * @description The password under the registration rules (8 characters, 72 bytes) → else 400; an unknown token → 400 `reset_token_unknown`, a used one → 400 `reset_token_used`, an expired one → 400 `reset_token_expired`. Every token the user held is revoked; the address counts as verified.
         */
        post: operations["postAuthPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password/reset.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reset page's script */
        get: operations["getAuthPasswordResetJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/verify/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for the verification mail again
         * @description 202 with the same body whatever the address. An unverified account of that address gets a new link (24 hours; the earlier link stops working). More than ACCOUNT_MAIL_PER_CLIENT_PER_HOUR (20) such requests from the client in an hour → 429; MAIL_QUEUE_MAX mails waiting → 503. Past ACCOUNT_MAIL_PER_ADDRESS_PER_HOUR (3) for one address the answer stays 202 and no mail is sent.
         */
        post: operations["postAuthVerifyResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password
         * @description Authorization: Bearer <token from /auth/login>. A wrong current password → 403 `wrong_password` (counted as a failed login of the client: 5 in 15 minutes → 429); a new password against the registration rules → 400. Answers a new token: every earlier token of the user, this one included, is revoked.
         */
        post: operations["postAuthPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Administrator login (token: HS256, audience admin, 24 hours)
         * @description Missing field → 400; unknown user or wrong password → 401 (one message); per-IP lockout as /auth/login, counted separately → 429.
         */
        post: operations["postApiAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check an administrator token */
        get: operations["getApiAuthVerify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/lockouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Login lockouts now in force
         * @description Client addresses locked out of a login (5 failures, 15 minutes) and accounts whose comparisons are slowed down, newest first, at most 1,000 of each.
         */
        get: operations["getApiAdminLockouts"];
        put?: never;
        post?: never;
        /**
         * Clear a login lockout
         * @description `target`: a client address (its failures in both logins are forgotten; an IPv6 address clears its /64) or an administrator username / user e-mail (the account's slowdown is forgotten). Written to the activity log. Nothing recorded for it → 404 `not_locked`.
         */
        delete: operations["deleteApiAdminLockouts"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API tokens (never their secrets) */
        get: operations["getApiAdminTokens"];
        put?: never;
        /**
         * Create an API token (its secret is shown once)
         * @description A live token of that name → 409. The secret is stored as its SHA-256 only. Written to the activity log.
         */
        post: operations["postApiAdminTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API token
         * @description Refused by every process from the next request on (each use reads PostgreSQL). Unknown or already revoked → 404. Written to the activity log.
         */
        delete: operations["deleteApiAdminTokensById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An event schedule for editing */
        get: operations["getApiAdminEventsById"];
        /**
         * Update an event schedule
         * @description No payload → 400; unknown event → 404; keepPosterIds naming a poster of another event → 400. Fields not sent: title and date keep their values; time, venue, schoolName, postUrls, memberIds are cleared (PUT replaces). Posters become keepPosterIds followed by the new files; dropped posters lose their image records and files.
         */
        put: operations["putApiAdminEventsById"];
        post?: never;
        /** Delete an event schedule */
        delete: operations["deleteApiAdminEventsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an event schedule with posters
         * @description Rules: no payload → 400; title, date or schoolName missing → 400; subtype not allowed → 400; venue missing → 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB (a JSON body over 1 MB), or an image over the pixel limit → 413. Posters stored as event/<id>/poster/NN.<ext>.
         */
        post: operations["postApiAdminEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Albums with their tracks, newest release first */
        get: operations["getApiAlbums"];
        put?: never;
        /**
         * Create an album
         * @description No payload → 400; title required. Title: trimmed, Unicode NFC, unique (409 when another album has it). Tracks: unique positive trackNumbers and unique titles, else 400. A cover file that is not a decodable image → 400 and nothing stored; over 20 MB or the pixel limit → 413. Cover stored as album/<id>/cover/<ms>.<format> with medium and thumb WebP variants.
         */
        post: operations["postApiAlbums"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/by-name/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An album by its title (percent-encoded; Hangul and spaces allowed) */
        get: operations["getApiAlbumsByNameByName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/by-name/{name}/track/{trackTitle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One track by album title and track title, with the previous and next track by track number */
        get: operations["getApiAlbumsByNameByNameTrackByTrackTitle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An album by id */
        get: operations["getApiAlbumsById"];
        /**
         * Update an album
         * @description No payload → 400; unknown album → 404. Only the fields sent change; `tracks`, when sent, replaces every track. Title: trimmed, Unicode NFC, unique (409 when another album has it). Tracks: unique positive trackNumbers and unique titles, else 400. A cover file that is not a decodable image → 400 and nothing stored; over 20 MB or the pixel limit → 413. Cover stored as album/<id>/cover/<ms>.<format> with medium and thumb WebP variants.
         */
        put: operations["putApiAlbumsById"];
        post?: never;
        /** Delete an album with its tracks, photos, teasers and cover, and all their files */
        delete: operations["deleteApiAlbumsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/{id}/photos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Photos of an album by sortOrder */
        get: operations["getApiAlbumsByIdPhotos"];
        put?: never;
        /**
         * Upload photos to an album
         * @description Optional payload applied to every file; unknown member ids → 400; no file → 400; a file that is not a decodable image → 400 and nothing stored; over 20 MB → 413. Without sortOrder the photos follow the album's last one in the order sent. Stored as album/<id>/photos/<ms><n>.<format> with medium and thumb WebP variants.
         */
        post: operations["postApiAlbumsByIdPhotos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/{id}/photos/{photoId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update a photo’s concept, members or sort order (only the fields sent change) */
        put: operations["putApiAlbumsByIdPhotosByPhotoId"];
        post?: never;
        /** Delete a photo with its image record and files */
        delete: operations["deleteApiAlbumsByIdPhotosByPhotoId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/{id}/teasers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Teasers of an album by sortOrder */
        get: operations["getApiAlbumsByIdTeasers"];
        put?: never;
        /**
         * Upload one teaser (image or video)
         * @description The kind is decided by the file's bytes, not its name or declared type. An image (JPEG, PNG, WebP, GIF, AVIF; at most 20 MB) goes through the image pool: originalUrl is the original, thumbUrl the 400 px WebP. A video (MP4, MOV, WebM; at most 100 MB) is stored as uploaded with thumbUrl null: no frame-extraction tool is in the stack, so videos get no thumbnail. Anything else → 400 and nothing stored. Stored as album/<id>/teasers/<ms>.<ext>. Without sortOrder the teaser follows the album's last one.
         */
        post: operations["postApiAlbumsByIdTeasers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/albums/{id}/teasers/{teaserId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a teaser with its files */
        delete: operations["deleteApiAlbumsByIdTeasersByTeaserId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Completions of what was typed (prefix, half-typed syllables, bigrams, initial consonants), ranked by popularity then recency; a query with a word one jamo off a known word gets its corrected form first
         * @description A saved search is a candidate only once saved from SUGGEST_MIN_NETWORKS (default 3) distinct networks (IPv4 /24, IPv6 /48) within SAVED_SEARCH_RETENTION_DAYS (default 30); the 500 most saved are held. An answer not served from the 5-second cache of identical requests counts against the client's query budget (QUERY_BUDGET_BURST requests, refilled at QUERY_BUDGET_PER_SECOND, shared with search): past it 429 with Retry-After.
         */
        get: operations["getApiSchedulesSuggestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/suggestions/popular": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Most saved searches of the last 7 days
         * @description Counts one save per client address (an IPv6 client: its /64), query and day; a query saved from fewer than SUGGEST_MIN_NETWORKS (default 3) distinct networks (IPv4 /24, IPv6 /48), or blocked by an administrator, is never listed.
         */
        get: operations["getApiSchedulesSuggestionsPopular"];
        put?: never;
        post?: never;
        /**
         * Take a query out of popular searches and suggestions for good
         * @description Deletes its saved rows and ignores later saves of every text that normalises to the same query (NFKC; invisible, bidi, format and control characters removed; whitespace and the blank braille cell collapsed to one space; Latin case folded; look-alike letters of other scripts read as the letters they imitate, by the Unicode confusable skeleton); every analysis thread drops it before its next answer. Idempotent: a second call answers `blocked: false`.
         */
        delete: operations["deleteApiSchedulesSuggestionsPopular"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/suggestions/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a finished search (the client calls it once per search; counted per normalised query)
         * @description Counted at most once per client address (an IPv6 client: its /64), query and UTC day; a repeat, or a query an administrator blocked, answers 200 and adds nothing. At most SAVED_SEARCH_LIMIT_PER_DAY (default 50) distinct queries per address and UTC day: past it 429 with Retry-After (seconds to the next UTC day). Saves are kept SAVED_SEARCH_RETENTION_DAYS (default 30).
         */
        post: operations["postApiSchedulesSuggestionsSave"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/suggestions/blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Queries taken out by an administrator, newest first */
        get: operations["getApiSchedulesSuggestionsBlocked"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/suggestions/dict": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user dictionary */
        get: operations["getApiSchedulesSuggestionsDict"];
        /** Replace the user dictionary (validated line by line; used from the next query on) */
        put: operations["putApiSchedulesSuggestionsDict"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/search/misses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Searches that find nothing, or only by leaving words out, most missed first
         * @description Counted by normalised query only (no address, no user), the first page of each search, with a daily decay (each miss adds one; the sum halves every day). A repeat answered from the results cache is not counted again. Rows not seen for 14 days are deleted.
         */
        get: operations["getApiAdminSearchMisses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/search/aliases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Aliases of venues and members and translations of album and track titles */
        get: operations["getApiAdminSearchAliases"];
        put?: never;
        /**
         * Add another name of a venue or a member: a query naming it finds what names the venue or member
         * @description Answers 201 with the new alias, 200 with the one already stored; 404 when the venue or member does not exist.
         */
        post: operations["postApiAdminSearchAliases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/search/translations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a translation of an album or track title: a query in that language finds what names the title
         * @description Answers 201 with the new translation, 200 with the one already stored; 404 when the album or track does not exist.
         */
        post: operations["postApiAdminSearchTranslations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/search/aliases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an alias or a translation */
        delete: operations["deleteApiAdminSearchAliasesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly listing with birthdays, or search with ?search=
         * @description Without `search`: {year, month, schedules} of the month (default: this month in Asia/Seoul), sorted by date, then time (timed first), then the day’s birthdays in display order, then untimed items. Birthdays of current members are items with isBirthday: true and id `birthday-<memberId>-<year>`; 29 February shows on 28 February in other years. With `search`: {schedules, total, hasMore}, best match first (title, then school or source, then event venue name/address, then members, then description), `limit` at most 100; `total` counts matches exactly up to 1,000: a search matching more reports 1000 and `hasMore: true` while pages follow (pages stay in exact rank order); when nothing matches well, the query is also read as fans type it (docs/search.md, "How fans type"): Latin letters typed on the Korean 2-set layout (`fnalsp` → 루미네), fan shorthand (synonyms, editable in the user dictionary as `뮤비 => MV`), words without trailing particles, a half-typed last syllable, letters and digits run together; those matches follow the exact ones, then words one keystroke off (a similar vowel, a doubled consonant, a missing or extra final consonant or key of a compound vowel; two for words of five syllables or more). When no schedule matches every word, a word naming a month (`5월`) is read as the schedules’ month (any year); failing that, words are left out and listed in `ignoredWords`. A search page not held by the 10-second result cache counts against the client's query budget (shared with suggestions): past it 429 with Retry-After. Strong ETag; If-None-Match → 304.
         */
        get: operations["getApiSchedules"];
        put?: never;
        /**
         * Create a schedule (any category but birthdays and events)
         * @description categoryId must name a category other than birthdays (10) and events (11), which have their own paths → else 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB (a JSON body over 1 MB) → 413. Images stored as schedule/<id>/image/NN.<ext> with medium and thumb WebP variants. The month listing, the calendar feeds, the search index and the activity log follow before the answer.
         */
        post: operations["postApiSchedules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/sync-search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rebuild the search index from the stored schedules */
        post: operations["postApiSchedulesSyncSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A schedule with description, images and its platform record */
        get: operations["getApiSchedulesById"];
        /**
         * Replace a schedule
         * @description Unknown id → 404; an event (use /api/admin/events/:id) or a birthday → 400; keepImageIds naming an image of another schedule → 400. PUT replaces: time, description, source and memberIds not sent are cleared. Images become keepImageIds followed by the new files; dropped images lose their records and files. categoryId must name a category other than birthdays (10) and events (11), which have their own paths → else 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB (a JSON body over 1 MB) → 413. Images stored as schedule/<id>/image/NN.<ext> with medium and thumb WebP variants. The month listing, the calendar feeds, the search index and the activity log follow before the answer.
         */
        put: operations["putApiSchedulesById"];
        post?: never;
        /** Delete a schedule (event record, member and image links, images and files go with it; the index entry is removed) */
        delete: operations["deleteApiSchedulesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule-categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Schedule categories (11 = 행사 events, 10 = 생일 birthdays) */
        get: operations["getApiScheduleCategories"];
        put?: never;
        /**
         * Add a schedule category (last in the display order)
         * @description A name another category has → 409. Every cached month and the category list follow at once.
         */
        post: operations["postApiScheduleCategories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule-categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule category, with its ETag (for If-Match on its PUT and DELETE) */
        get: operations["getApiScheduleCategoriesById"];
        /**
         * Rename or recolour a schedule category
         * @description Unknown id → 404; renaming the built-in birthday (10) or event (11) category → 400 (their colour may change); a name another category has → 409.
         */
        put: operations["putApiScheduleCategoriesById"];
        post?: never;
        /**
         * Delete an empty schedule category
         * @description Birthday (10), event (11), video (6) and SNS (7) categories → 400 (the bots write into 6 and 7); unknown id → 404; a category schedules still use → 409 with their count.
         */
        delete: operations["deleteApiScheduleCategoriesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedule-categories-order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the display order of the categories
         * @description `ids`: every category exactly once, first shown first. A duplicate, an unknown or a missing id → 400 and nothing changes.
         */
        put: operations["putApiScheduleCategoriesOrder"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/calendar.ics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Calendar feed (iCalendar) to subscribe to
         * @description RFC 5545 with RFC 7986 NAME, REFRESH-INTERVAL, IMAGE. Schedules dated from the first day of the month 3 months before this month (Asia/Seoul) to the last day of the 12th month after it, one VEVENT each (UID schedule-<id>@<host>, SEQUENCE grows with every change; timed ones in TZID=Asia/Seoul, untimed ones all-day), and the current members' birthdays as yearly all-day events (29 February: the last day of February). Filters: members (their schedules and birthdays), categories (ids; birthdays only when 10 is among them), birthdays=false leaves birthdays out. A member or category that names nothing → 400. Bounded: at most 5000 schedules (the earliest), a description cut at 1000 characters ending in "…" and "전체 내용: <the schedule's URL>", a title at 300, 10 images an event; control characters left out. A feed not in the cache costs the client 10 of its query budget (QUERY_BUDGET_BURST, shared with search): past it 429 with Retry-After. Strong ETag; If-None-Match → 304; br/gzip.
         */
        get: operations["getApiSchedulesCalendarIcs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/map/places": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search places on the map platform (venue picker)
         * @description Kakao Local keyword search through MAP_API_URL with MAP_API_KEY; each place in the venue shape of events (lat/lng from the platform's y/x, map_id its place id). Not configured → 503; the platform unreachable, slow (10 s) or failing → 502; after 5 failures in a row the search is refused for a minute → 503 with Retry-After.
         */
        get: operations["getApiAdminMapPlaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members in display order */
        get: operations["getApiMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A member by name (percent-encoded; Hangul and spaces allowed) */
        get: operations["getApiMembersByName"];
        /** Update a member (only the fields sent change) */
        put: operations["putApiMembersByName"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard counts */
        get: operations["getApiStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stored file
         * @description Streamed with Content-Length, a strong ETag (If-None-Match, compared weakly → 304), Last-Modified (If-Modified-Since → 304 when If-None-Match is absent), Accept-Ranges: bytes and one Range (206 with Content-Range; 416 when no byte of it exists). HEAD answers the headers only.
         */
        get: operations["getStorageByPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/bots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the bots defined by BOTS_CONFIG with their state */
        get: operations["getApiAdminBots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/bots/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a bot
         * @description Clears its error and makes it due now. The runner of the bots role (one active instance) follows the state within seconds.
         */
        post: operations["postApiAdminBotsByIdStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/bots/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a bot (a pass in flight finishes) */
        post: operations["postApiAdminBotsByIdStop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/bots/{id}/sync-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Full synchronisation: every page of the channel or timeline
         * @description Runs in the request. A call while a full pass of the same bot runs (started by this edge process) joins it: it answers when that pass ends, with the same result, and reads the platform no further. Items that pass the filter and have no schedule yet are handed to the schedule writer (`added`); `total` counts the items that pass the filter. Idempotent: a second run adds 0 once the first is stored. Quota exhausted → 503 and the quota warning set; other platform failures → 502 (504 on timeout), and the bot shows the error.
         */
        post: operations["postApiAdminBotsByIdSyncAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/bots/quota-warning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The video platform quota warning
         * @description Active from the platform answering quotaExceeded until its daily reset (midnight America/Los_Angeles, `resumeAt`); video bots pause meanwhile.
         */
        get: operations["getApiAdminBotsQuotaWarning"];
        put?: never;
        post?: never;
        /** Clear the quota warning (video bots resume) */
        delete: operations["deleteApiAdminBotsQuotaWarning"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/video/video-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up a video by URL or id
         * @description Accepts watch, shorts, live, embed and youtu.be URLs of the platform and bare 11-character ids; anything else → 400. The URL is never fetched: the id is read through the configured API. Unknown video → 404; quota exhausted → 503 and the warning set.
         */
        get: operations["getApiAdminVideoVideoInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/video/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a schedule from a video
         * @description The video-info fields, title/date/time/memberIds/description possibly edited. 409 when the video already has a schedule.
         */
        post: operations["postApiAdminVideoSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/video/schedule/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a video schedule
         * @description Fields not sent keep their values; time null or "" clears it; memberIds replaces the links. 404 when the schedule is not a video schedule.
         */
        put: operations["putApiAdminVideoScheduleById"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/microblog/post-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up a post by URL
         * @description Only status URLs of the platform or of the configured mirror; others → 400. Read through the mirror in headless Chromium. Unknown post → 404; mirror down → 502/503; MICROBLOG_MIRROR_URL unset → 503.
         */
        get: operations["getApiAdminMicroblogPostInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/microblog/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a schedule from a post
         * @description Title: the first line of the text. 409 when the post already has a schedule.
         */
        post: operations["postApiAdminMicroblogSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live calendar: every change of the watched months as it is written (SSE; WebSocket on the same path)
         * @description Server-Sent Events (send `Accept: text/event-stream`, as EventSource does) or, on the same path, a WebSocket upgrade. Each change of a watched month is one event: `id` is its seq (one sequence shared by all replicas), `event` its type (schedule.created, schedule.updated, schedule.deleted; reset: refetch the months), `data` the JSON message with the month listing's item.
         *
         *     Reconnecting with `Last-Event-ID` (EventSource does it by itself) or `since` delivers every change missed, in order and once, within the retention window (at least 24 hours and the newest 10,000 changes); older, one `reset` event. A comment line every LIVE_HEARTBEAT_SECONDS (25) keeps proxies open.
         *
         *     Per client address at most LIVE_MAX_CONNECTIONS_PER_CLIENT live connections (429), per network (an IPv4 /24, an IPv6 /48) LIVE_MAX_CONNECTIONS_PER_NETWORK and at most LIVE_MAX_NETWORK_SHARE_PERCENT of the process (429), per process LIVE_MAX_CONNECTIONS (503). A resume is paid from the query budget of the client's network; past it, a `reset` event instead of the replay. Both transports and every message: the AsyncAPI 3.0 document at [/api/asyncapi.json](/api/asyncapi.json).
         */
        get: operations["getApiSchedulesLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/asyncapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AsyncAPI 3.0 description of the live calendar (WebSocket and Server-Sent Events) */
        get: operations["getApiAsyncapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdminUser: {
            id: number;
            username: string;
        };
        Album: {
            id: number;
            title: string;
            albumType: string;
            releaseDate: string | null;
            cover: {
                originalUrl: string;
                mediumUrl: string;
                thumbUrl: string;
            } | null;
            description: string | null;
            /** @description by track number */
            tracks: components["schemas"]["Track"][];
        };
        AlbumCreatePayload: {
            /** @description stored trimmed, Unicode NFC */
            title: string;
            /** @description free text (정규, 미니, 싱글, …); empty when not sent on create */
            albumType?: string;
            releaseDate?: string | null;
            description?: string | null;
            /** @description track numbers and titles unique within the album */
            tracks?: {
                id?: number;
                trackNumber: number;
                /** @description stored trimmed, Unicode NFC */
                title: string;
                isTitleTrack?: boolean;
                duration?: string | null;
                lyricist?: string | null;
                composer?: string | null;
                arranger?: string | null;
                lyrics?: string | null;
                musicVideoUrl?: string | null;
            }[];
        };
        AlbumPhoto: {
            id: number;
            concept: string | null;
            originalUrl: string;
            mediumUrl: string;
            thumbUrl: string;
            width: number;
            height: number;
            memberIds: number[];
            sortOrder: number;
        };
        AlbumTeaser: {
            id: number;
            kind: "image" | "video";
            originalUrl: string;
            thumbUrl: string | null;
            sortOrder: number;
        };
        AlbumUpdatePayload: {
            /** @description stored trimmed, Unicode NFC */
            title?: string;
            /** @description free text (정규, 미니, 싱글, …); empty when not sent on create */
            albumType?: string;
            releaseDate?: string | null;
            description?: string | null;
            /** @description track numbers and titles unique within the album */
            tracks?: {
                id?: number;
                trackNumber: number;
                /** @description stored trimmed, Unicode NFC */
                title: string;
                isTitleTrack?: boolean;
                duration?: string | null;
                lyricist?: string | null;
                composer?: string | null;
                arranger?: string | null;
                lyrics?: string | null;
                musicVideoUrl?: string | null;
            }[];
        };
        ApiToken: {
            id: number;
            name: string;
            /** @description `read`: administrator GET routes; `read-write`: every administrator route */
            scope: "read" | "read-write";
            createdBy: string;
            /** Format: date-time */
            createdAt: string;
            expiresAt: string | null;
            /** @description to the minute */
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        Error: {
            /** @description Korean, human-readable message */
            error: string;
            /**
             * @description stable, machine-readable reason. New codes may be added; a client treats an unknown one by its HTTP status. Known codes: `invalid_request`, `unauthorized`, `forbidden`, `not_found`, `method_not_allowed`, `conflict`, `payload_too_large`, `range_not_satisfiable`, `rate_limited`, `internal_error`, `upstream_failed`, `service_unavailable`, `upstream_timeout`, `insufficient_storage`, `in_use`, `invalid_body`, `invalid_query`, `invalid_path`, `invalid_image`, `image_too_large`, `email_taken`, `name_taken`, `already_scheduled`, `invalid_credentials`, `email_unverified`, `token_missing`, `token_invalid`, `locked_out`, `database_unavailable`, `upload_busy`, `server_busy`, `shutting_down`, `invalid_client_address`, `mail_queue_full`, `control_character`, `not_acceptable`, `invalid_months`, `invalid_month`, `too_many_months`, `invalid_since`, `too_many_connections`, `invalid_message`, `unknown_type`, `message_too_large`, `too_many_messages`, `precondition_failed`, `not_locked`, `reset_token_unknown`, `reset_token_used`, `reset_token_expired`, `wrong_password`, `insufficient_scope`.
             * @example invalid_request
             * @example unauthorized
             * @example forbidden
             * @example not_found
             * @example method_not_allowed
             * @example conflict
             * @example payload_too_large
             * @example range_not_satisfiable
             * @example rate_limited
             * @example internal_error
             * @example upstream_failed
             * @example service_unavailable
             * @example upstream_timeout
             * @example insufficient_storage
             * @example in_use
             * @example invalid_body
             * @example invalid_query
             * @example invalid_path
             * @example invalid_image
             * @example image_too_large
             * @example email_taken
             * @example name_taken
             * @example already_scheduled
             * @example invalid_credentials
             * @example email_unverified
             * @example token_missing
             * @example token_invalid
             * @example locked_out
             * @example database_unavailable
             * @example upload_busy
             * @example server_busy
             * @example shutting_down
             * @example invalid_client_address
             * @example mail_queue_full
             * @example control_character
             * @example not_acceptable
             * @example invalid_months
             * @example invalid_month
             * @example too_many_months
             * @example invalid_since
             * @example too_many_connections
             * @example invalid_message
             * @example unknown_type
             * @example message_too_large
             * @example too_many_messages
             * @example precondition_failed
             * @example not_locked
             * @example reset_token_unknown
             * @example reset_token_used
             * @example reset_token_expired
             * @example wrong_password
             * @example insufficient_scope
             */
            code: string;
            /** @description with `in_use`: how many items still use what was to be deleted */
            count?: number;
        };
        EventCreatePayload: {
            title: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            time?: (string | "") | null;
            /** @enum {string} */
            subtype?: "university";
            schoolName: string;
            memberIds?: number[];
            postUrls?: string[];
            venue: {
                name: string;
                address?: string | null;
                roadAddress?: string | null;
                lat?: number | null;
                lng?: number | null;
                map_id?: string | null;
            };
        };
        EventUpdatePayload: {
            title?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date?: string;
            time?: (string | "") | null;
            /** @enum {string} */
            subtype?: "university";
            schoolName?: string | null;
            memberIds?: number[];
            postUrls?: string[] | null;
            venue?: {
                name: string;
                address?: string | null;
                roadAddress?: string | null;
                lat?: number | null;
                lng?: number | null;
                map_id?: string | null;
            } | null;
            keepPosterIds?: number[];
        };
        Image: {
            id: number;
            originalUrl: string;
            mediumUrl: string;
            thumbUrl: string;
        };
        Lockout: {
            /** @description `address`: a client locked out of a login; `account`: an account whose password comparisons are slowed down */
            kind: "address" | "account";
            /** @description `user`: /auth/login; `admin`: /api/auth/login */
            scope: "user" | "admin";
            /** @description the client (an IPv4 address, an IPv6 client as its /64) or the account (username or e-mail) */
            target: string;
            failures: number;
            /** Format: date-time */
            lastFailureAt: string;
            /**
             * Format: date-time
             * @description when it ends by itself
             */
            until: string;
        };
        Member: {
            id: number;
            name: string;
            nameEn: string | null;
            birthDate: string | null;
            position: string | null;
            imageUrl: string | null;
            instagram: string | null;
            isFormer: boolean;
            nicknames: string[];
        };
        MemberUpdatePayload: {
            name?: string;
            nameEn?: string | null;
            birthDate?: string | null;
            position?: string | null;
            instagram?: string | null;
            isFormer?: boolean;
            nicknames?: string[];
            sortOrder?: number;
        };
        PhotoUploadPayload: {
            concept?: string | null;
            /** @description ids of existing members */
            memberIds?: number[];
            sortOrder?: number;
        };
        PublicUser: {
            id: number;
            email: string;
            name: string;
            profileUrl: string;
            isAdmin: boolean;
        };
        ScheduleCreatePayload: {
            categoryId: number;
            title: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            time?: (string | "") | null;
            description?: string | null;
            source?: {
                name: string;
                url?: string | null;
            } | null;
            memberIds?: number[];
        };
        /** @description Event items (category 11) add subtype, schoolName, venue, posters, postUrls; their source.name is the school name. */
        ScheduleItem: {
            id: number | string;
            title: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            time: string | null;
            category: {
                id: number;
                name: string;
                color: string;
            };
            source: {
                name: string;
                url: string | null;
            } | null;
            members: {
                id: number;
                name: string;
            }[];
            /** @constant */
            isBirthday?: true;
            subtype?: string;
            schoolName?: string | null;
            venue?: components["schemas"]["Venue"] | null;
            posters?: components["schemas"]["Image"][];
            postUrls?: string[];
        };
        ScheduleUpdatePayload: {
            categoryId: number;
            title: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            time?: (string | "") | null;
            description?: string | null;
            source?: {
                name: string;
                url?: string | null;
            } | null;
            memberIds?: number[];
            keepImageIds?: number[];
        };
        SearchAlias: {
            id: number;
            kind: "venue" | "member" | "album" | "track";
            targetId: number;
            alias: string;
            /** @description The script or language of the name */
            lang: "ko" | "en" | "ja" | "other";
            /** Format: date-time */
            createdAt: string;
        };
        SearchAliasBody: {
            kind: "venue" | "member";
            id: number;
            alias: string;
            /** @description The script or language of the name */
            lang?: "ko" | "en" | "ja" | "other";
        };
        SearchMiss: {
            /** @description The query as normalised (NFKC, invisible code points removed, whitespace collapsed, Latin case folded) */
            query: string;
            /** @description Misses counted with a daily decay: each adds one, the sum halves every day */
            score: number;
            /** @description Misses counted, not decayed */
            count: number;
            /** @description The last one found schedules only by leaving words out (else it found nothing) */
            partial: boolean;
            /** Format: date-time */
            firstSeen: string;
            /** Format: date-time */
            lastSeen: string;
        };
        SearchTranslationBody: {
            kind: "album" | "track";
            id: number;
            title: string;
            /** @description The script or language of the name */
            lang: "ko" | "en" | "ja" | "other";
        };
        TeaserUploadPayload: {
            sortOrder?: number;
        };
        Track: {
            id: number;
            trackNumber: number;
            title: string;
            isTitleTrack: boolean;
            duration: string | null;
            lyricist: string | null;
            composer: string | null;
            arranger: string | null;
            lyrics: string | null;
            musicVideoUrl: string | null;
        };
        Venue: {
            id: number;
            name: string;
            address: string;
            roadAddress: string;
            lat: number | null;
            lng: number | null;
            map_id: string | null;
        };
    };
    responses: {
        /** @description invalid request: the path or query string does not decode (percent-encoding), or a parameter, the query or the body does not match its schema */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description missing, invalid or expired token */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description the body is larger than the operation accepts */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description too many requests from this client address; retry after Retry-After seconds */
        TooManyRequests: {
            headers: {
                /** @description seconds to wait before retrying */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description the database (or an upload slot) is not available now; retry after Retry-After seconds */
        ServiceUnavailable: {
            headers: {
                /** @description seconds to wait before retrying */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description the disk is full: nothing was stored; retry later */
        InsufficientStorage: {
            headers: {
                /** @description seconds to wait before retrying */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description the embedded database is given up */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description not ready; {error} names the failing checks */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
        };
    };
    getApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
        };
    };
    getApiDocsByAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                asset: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description no such file */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a bare mailbox address (no display name, list, comment, group or quoted part); NFC-normalised, unique whatever its letter case */
                    email: string;
                    /** @description at least 8 characters and at most 72 bytes in UTF-8 after NFC */
                    password: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getAuthVerifyByToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        token: string;
                        user: components["schemas"]["PublicUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        loggedIn: false;
                    } | {
                        /** @constant */
                        loggedIn: true;
                        user: components["schemas"]["PublicUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        refreshed: true;
                        token: string;
                    } | {
                        /** @constant */
                        refreshed: false;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteAuthDelete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postAuthPasswordForgot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getAuthPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/html */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token of the mailed link */
                    token: string;
                    /** @description the new password: at least 8 characters and at most 72 bytes in UTF-8 after NFC */
                    password: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getAuthPasswordResetJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/javascript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": unknown;
                };
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAuthVerifyResend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        message: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postAuthPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    /** @description the new password: at least 8 characters and at most 72 bytes in UTF-8 after NFC */
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description a new token; every earlier one is revoked */
                        token: string;
                        user: components["schemas"]["PublicUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    username: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                        user: components["schemas"]["AdminUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAuthVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        valid: true;
                        user: components["schemas"]["AdminUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAdminLockouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        lockouts: components["schemas"]["Lockout"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteApiAdminLockouts: {
        parameters: {
            query: {
                target: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        kind: "address" | "account";
                        scopes: ("user" | "admin")[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["ApiToken"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAdminTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description what holds it (one live token per name) */
                    name: string;
                    /** @description `read`: administrator GET routes; `read-write`: every administrator route */
                    scope: "read" | "read-write";
                    /** @description unset: no expiry */
                    expiresInDays?: number;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the secret, shown this once: use it as `Authorization: Bearer <token>` */
                        token: string;
                        apiToken: components["schemas"]["ApiToken"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAdminTokensById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminEventsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description the version and a hash of this representation: send it back as If-Match to write over exactly this version */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        title: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD
                         */
                        date: string;
                        /** @description HH:MM, or empty string when absent */
                        time: string;
                        subtype: string;
                        schoolName: string;
                        memberIds: number[];
                        venue: components["schemas"]["Venue"] | null;
                        postUrls: string[];
                        posters: components["schemas"]["Image"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiAdminEventsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; file parts: posters, in order, whatever their field name (clients send `posters`) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventUpdatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["EventUpdatePayload"];
                    /** @description file parts: posters, in order, whatever their field name (clients send `posters`) */
                    posters?: Blob[];
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAdminEventsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiAdminEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; file parts: posters, in order, whatever their field name (clients send `posters`) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventCreatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["EventCreatePayload"];
                    /** @description file parts: posters, in order, whatever their field name (clients send `posters`) */
                    posters?: Blob[];
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAlbums: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Album"][];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAlbums: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; optional `cover` file part: the cover image */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlbumCreatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["AlbumCreatePayload"];
                    /**
                     * Format: binary
                     * @description optional `cover` file part: the cover image
                     */
                    cover?: Blob;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Album"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAlbumsByNameByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Album"];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAlbumsByNameByNameTrackByTrackTitle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                trackTitle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        album: {
                            id: number;
                            title: string;
                            cover: {
                                originalUrl: string;
                                mediumUrl: string;
                                thumbUrl: string;
                            } | null;
                        };
                        track: components["schemas"]["Track"];
                        prevTrack: {
                            title: string;
                        } | null;
                        nextTrack: {
                            title: string;
                        } | null;
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAlbumsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description the version and a hash of this representation: send it back as If-Match to write over exactly this version */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Album"];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiAlbumsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; optional `cover` file part: replaces the cover (the old image record and files are removed) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlbumUpdatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["AlbumUpdatePayload"];
                    /**
                     * Format: binary
                     * @description optional `cover` file part: replaces the cover (the old image record and files are removed)
                     */
                    cover?: Blob;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Album"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAlbumsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAlbumsByIdPhotos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlbumPhoto"][];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAlbumsByIdPhotos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: a `payload` part holding the JSON (optional); file parts: one photo each, in order, whatever their field name */
        requestBody: {
            content: {
                "multipart/form-data": {
                    payload?: components["schemas"]["PhotoUploadPayload"];
                    /** @description file parts: one photo each, in order, whatever their field name */
                    files?: Blob[];
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        photos: components["schemas"]["AlbumPhoto"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    putApiAlbumsByIdPhotosByPhotoId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                photoId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    concept?: string | null;
                    /** @description ids of existing members */
                    memberIds?: number[];
                    sortOrder?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlbumPhoto"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAlbumsByIdPhotosByPhotoId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                photoId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAlbumsByIdTeasers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlbumTeaser"][];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAlbumsByIdTeasers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: a `payload` part holding the JSON (optional); one file part: the teaser, whatever its field name */
        requestBody: {
            content: {
                "multipart/form-data": {
                    payload?: components["schemas"]["TeaserUploadPayload"];
                    /**
                     * Format: binary
                     * @description one file part: the teaser, whatever its field name
                     */
                    files?: Blob;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlbumTeaser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAlbumsByIdTeasersByTeaserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                teaserId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedulesSuggestions: {
        parameters: {
            query: {
                q: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        suggestions: string[];
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiSchedulesSuggestionsPopular: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queries: {
                            query: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteApiSchedulesSuggestionsPopular: {
        parameters: {
            query: {
                query: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the normalised query now blocked */
                        query: string;
                        /** @description false when it was blocked already */
                        blocked: boolean;
                        /** @description saved rows of it deleted */
                        removed: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiSchedulesSuggestionsSave: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedulesSuggestionsBlocked: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queries: {
                            query: string;
                            /** Format: date-time */
                            blockedAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiSchedulesSuggestionsDict: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        content: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiSchedulesSuggestionsDict: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description one entry a line: word<TAB>tag (NNP, NNG, ...), a synonym line `shorthand => meaning | meaning`, or a lexicon line `title form <=> same word | same word`; # starts a comment */
                    content: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminSearchMisses: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        misses: components["schemas"]["SearchMiss"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAdminSearchAliases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        aliases: components["schemas"]["SearchAlias"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAdminSearchAliases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchAliasBody"];
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alias: components["schemas"]["SearchAlias"];
                        created: boolean;
                    };
                };
            };
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alias: components["schemas"]["SearchAlias"];
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiAdminSearchTranslations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchTranslationBody"];
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alias: components["schemas"]["SearchAlias"];
                        created: boolean;
                    };
                };
            };
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alias: components["schemas"]["SearchAlias"];
                        created: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiAdminSearchAliasesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedules: {
        parameters: {
            query?: {
                year?: number;
                month?: number;
                search?: string;
                offset?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        year: number;
                        month: number;
                        schedules: components["schemas"]["ScheduleItem"][];
                    } | {
                        schedules: components["schemas"]["ScheduleItem"][];
                        total: number;
                        hasMore: boolean;
                        /** @description Present only when no schedule matches every word of the query: the words the results on this page leave out. Words matching nothing are left out first; when the rest still match nothing together, the schedules matching all of them but one come (of three words or more, each word left out in turn, listed in the order they are left out: digits first, then the shortest, the last typed first), then fewer. Each result matches every word not named here. */
                        ignoredWords?: string[];
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; file parts: images (posters), in order, whatever their field name */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCreatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["ScheduleCreatePayload"];
                    /** @description file parts: images (posters), in order, whatever their field name */
                    files?: Blob[];
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiSchedulesSyncSearch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        synced: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedulesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description the version and a hash of this representation: send it back as If-Match to write over exactly this version */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleItem"] & {
                        description: string | null;
                        images: components["schemas"]["Image"][];
                        video?: {
                            videoId: string;
                            channelName: string | null;
                            videoType: string;
                        };
                        post?: {
                            postId: string;
                            username: string;
                            imageUrls: string[];
                        };
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiSchedulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON; file parts: images (posters), in order, whatever their field name */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleUpdatePayload"];
                "multipart/form-data": {
                    payload: components["schemas"]["ScheduleUpdatePayload"];
                    /** @description file parts: images (posters), in order, whatever their field name */
                    files?: Blob[];
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiSchedulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiScheduleCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        color: string;
                        sortOrder: number;
                    }[];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiScheduleCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description unique */
                    name: string;
                    /** @description #rrggbb */
                    color: string;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiScheduleCategoriesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description the version and a hash of this representation: send it back as If-Match to write over exactly this version */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        color: string;
                        sortOrder: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiScheduleCategoriesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description unique */
                    name?: string;
                    /** @description #rrggbb */
                    color?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deleteApiScheduleCategoriesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    putApiScheduleCategoriesOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: number[];
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedulesCalendarIcs: {
        parameters: {
            query?: {
                members?: string;
                categories?: string;
                birthdays?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/calendar */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAdminMapPlaces: {
        parameters: {
            query: {
                query: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        places: {
                            name: string;
                            address: string;
                            roadAddress: string;
                            lat: number | null;
                            lng: number | null;
                            map_id: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"][];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiMembersByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description the version and a hash of this representation: send it back as If-Match to write over exactly this version */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putApiMembersByName: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        /** @description the payload alone as an application/json body when there are no files, or multipart/form-data: a `payload` part holding the JSON (optional); optional `image` file part: the new profile image (three sizes; the old image files are removed); a payload, an image or both */
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberUpdatePayload"];
                "multipart/form-data": {
                    payload?: components["schemas"]["MemberUpdatePayload"];
                    /**
                     * Format: binary
                     * @description optional `image` file part: the new profile image (three sizes; the old image files are removed); a payload, an image or both
                     */
                    image?: Blob;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: number;
                        albums: number;
                        tracks: number;
                        photos: number;
                        schedules: number;
                        schedulesByCategory: {
                            categoryId: number;
                            name: string;
                            count: number;
                        }[];
                        schedulesByYear: {
                            year: number;
                            count: number;
                        }[];
                        bots: {
                            total: number;
                            running: number;
                        };
                    };
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getStorageByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the rest of the path, slashes included */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            /** @description the requested range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            /** @description not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description no such file */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description range not satisfiable */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAdminBots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        type: "video" | "microblog";
                        /** @description running: runs every intervalMinutes; stopped: started by nobody; error: the last run failed, retried after 1, 2, 4 … 60 minutes (nextRunAt) */
                        status: "running" | "stopped" | "error";
                        intervalMinutes: number;
                        lastCheckAt: string | null;
                        lastAddedCount: number;
                        /** @description schedules whose platform record came from this bot's channel or account */
                        scheduleCount: number;
                        errorMessage: string | null;
                        nextRunAt: string | null;
                        config: {
                            channelId: string;
                            channelName: string;
                            titleFilter?: {
                                include?: string[];
                                exclude?: string[];
                            };
                            defaultMemberIds?: number[];
                            extractMembers?: boolean;
                            /** @description names of the group: one in a title or post links every current member (default none) */
                            groupNames?: string[];
                        } | {
                            username: string;
                            /** @description names of the group: one in a title or post links every current member (default none) */
                            groupNames?: string[];
                        };
                        /** @description the pass running now (a regular run or sync-all, in any process); null when none runs */
                        progress: {
                            /** @description listing: reading the source's pages; collecting: handing new items to the schedule writer */
                            phase: "listing" | "collecting";
                            /** @description pages of the source read so far */
                            pages: number;
                            /** @description items seen so far that pass the bot's filter */
                            seen: number;
                            /** @description items never collected before, handed to the schedule writer so far */
                            added: number;
                        } | null;
                    }[];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAdminBotsByIdStart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        status: "running" | "stopped" | "error";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiAdminBotsByIdStop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        status: "running" | "stopped" | "error";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    postApiAdminBotsByIdSyncAll: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description items never collected before (each item is recorded once), handed to the schedule writer; 0 on an immediate second call */
                        added: number;
                        /** @description items of the source that pass the bot's filter */
                        total: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description failure */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminBotsQuotaWarning: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        active: boolean;
                        message: string | null;
                        since: string | null;
                        resumeAt: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteApiAdminBotsQuotaWarning: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminVideoVideoInfo: {
        parameters: {
            query: {
                url: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        videoId: string;
                        title: string;
                        channelId: string;
                        channelName: string;
                        /** Format: date-time */
                        publishedAt: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD
                         */
                        date: string;
                        /** @description HH:MM */
                        time: string;
                        thumbnailUrl: string | null;
                        videoType: "video" | "shorts";
                        existingScheduleId: number | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAdminVideoSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    videoId: string;
                    title: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD
                     */
                    date: string;
                    /** @description HH:MM */
                    time: string;
                    channelId?: string | null;
                    channelName?: string | null;
                    publishedAt?: string | null;
                    thumbnailUrl?: string | null;
                    videoType?: "video" | "shorts";
                    memberIds?: number[];
                    description?: string;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    putApiAdminVideoScheduleById: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optimistic concurrency: the ETag of the resource as last read (its GET). The write applies only while that is still the current version; otherwise 412 `precondition_failed` and nothing changes. `*` applies to any current version. Without If-Match the write applies (last write wins). */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD
                     */
                    date?: string;
                    time?: (string | "") | null;
                    memberIds?: number[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match named a version that is no longer current: nothing changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiAdminMicroblogPostInfo: {
        parameters: {
            query: {
                url: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        postId: string;
                        username: string;
                        displayName: string;
                        text: string;
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD
                         */
                        date: string;
                        /** @description HH:MM */
                        time: string;
                        imageUrls: string[];
                        existingScheduleId: number | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description failure */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
            /** @description failure */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminMicroblogSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    postId: string;
                    username: string;
                    displayName?: string | null;
                    text: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD
                     */
                    date: string;
                    /** @description HH:MM */
                    time: string;
                    createdAt?: string | null;
                    imageUrls?: string[];
                    memberIds?: number[];
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description failure */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getApiSchedulesLive: {
        parameters: {
            query: {
                months: string;
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description an event stream that stays open */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description not an event-stream request (no Accept: text/event-stream) nor a WebSocket upgrade */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAsyncapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the AsyncAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
        };
    };
}
