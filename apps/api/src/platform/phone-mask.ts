/**
 * `+393331234567` → `+39 ••• ••• •567`: enough for the signer to recognise their number, not enough
 * to learn it. Country codes are taken as 1 digit for +1 and +7 and 2 otherwise (a 3-digit code shows
 * one digit less of prefix, which is harmless).
 */
export function maskPhone(phone: string): string {
  let compact = phone.replace(/[^\d+]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  let prefix = '';
  let national = compact.replace(/\+/g, '');
  if (compact.startsWith('+')) {
    const ccLength = national.startsWith('1') || national.startsWith('7') ? 1 : 2;
    prefix = `+${national.slice(0, ccLength)} `;
    national = national.slice(ccLength);
  }
  const visible = Math.min(3, Math.max(0, national.length - 4));
  const masked = '•'.repeat(national.length - visible) + national.slice(national.length - visible);
  const groups: string[] = [];
  let rest = masked;
  while (rest.length > 4) {
    groups.push(rest.slice(0, 3));
    rest = rest.slice(3);
  }
  if (rest) groups.push(rest);
  return prefix + groups.join(' ');
}
