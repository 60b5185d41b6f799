// The stored form of an e-mail address: the domain in its ASCII form by the IDNA mapping of UTS #46
// (Node's url.domainToASCII, which nodemailer applies when it sends), so every spelling that is
// delivered to one mailbox is one account: `a@ｅxample.org` and `a@ＥＸＡＭＰＬＥ.org` are
// `a@example.org`, `a@bücher.de` is `a@xn--bcher-kva.de`. The local part is kept as written
// (the mail library sends it unchanged); uniqueness ignores its letter case, as before.
import { domainToASCII } from 'node:url';

/**
 * Invisible format characters (Unicode category Cf: zero-width space, joiners, the BOM, soft
 * hyphen, direction marks). The IDNA mapping drops some of them, so `a@exa\u200bmple.org` would
 * quietly be another spelling of `a@example.org`; in the local part they make an address that
 * reads as another one.
 */
const INVISIBLE = /\p{Cf}/u;

export type EmailProblem = 'invisible' | 'domain';

export class EmailAddressError extends Error {
  constructor(readonly problem: EmailProblem) {
    super(problem === 'invisible' ? 'the address holds an invisible character' : 'the domain has no IDNA form');
  }
}

/** The address with its domain in ASCII form; throws EmailAddressError when it has none. */
export function canonicalEmail(address: string): string {
  if (INVISIBLE.test(address)) throw new EmailAddressError('invisible');
  const at = address.lastIndexOf('@');
  if (at <= 0) throw new EmailAddressError('domain');
  const domain = domainToASCII(address.slice(at + 1));
  // '' when UTS #46 cannot map it (a label `xn--` that is no Punycode, a forbidden code point).
  if (domain === '' || !/^[^.]+(\.[^.]+)+$/.test(domain)) throw new EmailAddressError('domain');
  return `${address.slice(0, at)}@${domain}`;
}

/** For a lookup (login): the stored form, or the address as given when it has none (it matches no account). */
export function lookupEmail(address: string): string {
  try {
    return canonicalEmail(address);
  } catch {
    return address;
  }
}
