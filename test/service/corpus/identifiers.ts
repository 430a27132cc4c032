// Identifiers with valid check digits, as the client validates some of them.
import { type Rng } from './rng';

/** An ISSN with a correct mod-11 check digit. */
export function issn(rng: Rng): string {
  const digits: number[] = [];
  for (let i = 0; i < 7; i++) digits.push(rng.int(0, 9));
  if (digits[0] === 0 && digits[1] === 0) digits[0] = 1;
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += digits[i]! * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  const s = digits.join('') + (check === 10 ? 'X' : String(check));
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

export function issnIsValid(value: string): boolean {
  const m = /^(\d{4})-(\d{3})([\dX])$/.exec(value);
  if (!m) return false;
  const digits = (m[1]! + m[2]!).split('').map(Number);
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += digits[i]! * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return (check === 10 ? 'X' : String(check)) === m[3];
}

/** An ORCID iD with a correct ISO 7064 11,2 check character. */
export function orcid(rng: Rng): string {
  let base = '000';
  base += String(rng.int(1, 3));
  for (let i = 0; i < 11; i++) base += String(rng.int(0, 9));
  let total = 0;
  for (const ch of base) total = (total + Number(ch)) * 2;
  const result = (12 - (total % 11)) % 11;
  const full = base + (result === 10 ? 'X' : String(result));
  return `${full.slice(0, 4)}-${full.slice(4, 8)}-${full.slice(8, 12)}-${full.slice(12)}`;
}
