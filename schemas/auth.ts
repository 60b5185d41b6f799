// Account service (/auth) request and response bodies: auth-service.md sections 2 and 4.
import { Type } from '@sinclair/typebox';

/**
 * R1 (non-space non-@ characters, @, the same, a dot, the same), narrowed to a bare mailbox: no
 * character that makes an address list, a display name, a comment, a group or a quoted part
 * (`,` `<` `>` `(` `)` `:` `;` `"` `[` `]` `\\`), and no control character. Such addresses were
 * delivered to someone else (`victim@example.org,0`, `<victim@…>`, `g:victim@…;`).
 */
const MAILBOX_CHAR = '[^\\s@,<>():;"\\[\\]\\\\\\x00-\\x1f\\x7f-\\x9f]';
export const EMAIL_PATTERN = `^${MAILBOX_CHAR}+@${MAILBOX_CHAR}+\\.${MAILBOX_CHAR}+$`;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_BYTES = 72;

export const PublicUser = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    profileUrl: Type.String(),
    isAdmin: Type.Boolean(),
  },
  { $id: 'PublicUser' },
);

export const RegisterBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320, pattern: EMAIL_PATTERN, description: 'a bare mailbox address (no display name, list, comment, group or quoted part); NFC-normalised, unique whatever its letter case' }),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH, description: `at least ${MIN_PASSWORD_LENGTH} characters and at most ${MAX_PASSWORD_BYTES} bytes in UTF-8 after NFC` }),
});

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1 }),
  password: Type.String({ minLength: 1 }),
});

export const LoginResponse = Type.Object({ success: Type.Literal(true), token: Type.String(), user: PublicUser });

export const MeResponse = Type.Union([
  Type.Object({ loggedIn: Type.Literal(false) }),
  Type.Object({ loggedIn: Type.Literal(true), user: PublicUser }),
]);

export const RefreshResponse = Type.Union([
  Type.Object({ refreshed: Type.Literal(true), token: Type.String() }),
  Type.Object({ refreshed: Type.Literal(false) }),
]);

export const VerifyParams = Type.Object({ token: Type.String({ description: 'verification token (UUID)' }) });
