// Account service (/auth) request and response bodies: auth-service.md sections 2 and 4.
import { Type } from '@sinclair/typebox';

/** R1: non-space non-@ characters, @, the same, a dot, the same. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
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
  email: Type.String({ minLength: 1, maxLength: 320, pattern: EMAIL_PATTERN }),
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
