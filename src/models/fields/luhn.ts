/** The Luhn check over all the digits (Italian and Swedish VAT numbers, Canadian business numbers). */
export function luhn(number: string): boolean {
  const sum = [...number]
    .map(Number)
    .reverse()
    .reduce((total, digit, i) => total + (i % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return sum % 10 === 0;
}
