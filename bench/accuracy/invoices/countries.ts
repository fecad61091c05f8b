/**
 * Where the labelled invoices come from: per country its languages, legal forms, addresses, tax
 * numbers, IBAN layout, currency, and how amounts and dates are printed there.
 */
import type { Language } from './locales.js';
import type { Random } from './random.js';

export type Country = 'US' | 'GB' | 'IN' | 'MY' | 'DE' | 'AT' | 'CH' | 'NL' | 'BE' | 'FR' | 'IT' | 'ES' | 'PT';

export interface CountryInfo {
  languages: readonly Language[];
  currency: string;
  legalForms: readonly string[];
  cities: readonly string[];
  streets: readonly string[];
  /** Label of the vendor's tax number and a generator of one, as printed. */
  taxLabels: readonly string[];
  taxId: (random: Random) => string;
  /** IBAN length and how its BBAN is made (letters: A, digits: 9). */
  iban?: string;
  /** Number styles in use, see formatNumber. */
  numberStyles: readonly NumberStyle[];
  /** Date styles in use, see formatDate. */
  dateStyles: readonly DateStyle[];
  postcode: (random: Random) => string;
}

export type NumberStyle = 'en' | 'eu' | 'fr' | 'ch' | 'in' | 'plain';
export type DateStyle = 'mdy-slash' | 'dmy-slash' | 'dmy-dot' | 'dmy-dash' | 'iso' | 'd-month-y' | 'month-d-y' | 'd-mon-y' | 'mon-d-y' | 'd-de-month-de-y' | 'd.-month-y' | 'dd-mon-yy';

const ROADS_EN = ['Harbour Road', 'Station Street', 'Mill Lane', 'King Street', 'Park Avenue', 'Church Road', 'High Street'];

export const COUNTRIES: Readonly<Record<Country, CountryInfo>> = {
  US: {
    languages: ['en'],
    currency: 'USD',
    legalForms: ['Inc.', 'LLC', 'Corp.', 'Inc', 'Co.'],
    cities: ['Austin, TX', 'Portland, OR', 'Columbus, OH', 'Denver, CO', 'Raleigh, NC'],
    streets: ['Market Street', 'Main St', 'Elm Avenue', '5th Avenue', 'Oak Drive'],
    taxLabels: ['Tax ID', 'EIN', 'Federal Tax ID'],
    taxId: (r) => `${r.digits(2)}-${r.digits(7)}`,
    numberStyles: ['en'],
    dateStyles: ['mdy-slash', 'month-d-y', 'mon-d-y', 'iso'],
    postcode: (r) => r.digits(5),
  },
  GB: {
    languages: ['en'],
    currency: 'GBP',
    legalForms: ['Ltd', 'Limited', 'LLP', 'PLC', 'Ltd.'],
    cities: ['Bristol', 'Leeds', 'Manchester', 'Norwich', 'Cardiff'],
    streets: ROADS_EN,
    taxLabels: ['VAT No', 'VAT Reg No', 'VAT Registration No', 'VAT number'],
    taxId: (r) => `GB${r.digits(9)}`,
    iban: 'GB99AAAA99999999999999',
    numberStyles: ['en'],
    dateStyles: ['dmy-slash', 'd-month-y', 'd-mon-y', 'dmy-dot'],
    postcode: (r) => `${r.letters(2)}${r.int(1, 19)} ${r.int(1, 9)}${r.letters(2)}`,
  },
  IN: {
    languages: ['en'],
    currency: 'INR',
    legalForms: ['Pvt. Ltd.', 'Private Limited', 'LLP', 'Pvt Ltd', 'Enterprises', 'Traders'],
    cities: ['Mumbai, Maharashtra', 'Pune, Maharashtra', 'Bengaluru, Karnataka', 'Chennai, Tamil Nadu', 'New Delhi'],
    streets: ['MG Road', 'Link Road', 'Nehru Nagar', 'Ring Road', 'Andheri East'],
    taxLabels: ['GSTIN', 'GSTIN/UIN', 'GST No', 'GST No.'],
    taxId: (r) => `${r.int(10, 36)}${r.letters(5)}${r.digits(4)}${r.letters(1)}${r.int(1, 9)}Z${r.int(1, 9)}`,
    numberStyles: ['in', 'en'],
    dateStyles: ['dmy-slash', 'dmy-dash', 'd-mon-y', 'dd-mon-yy', 'dmy-dot'],
    postcode: (r) => `${r.int(1, 8)}${r.digits(5)}`,
  },
  MY: {
    languages: ['en'],
    currency: 'MYR',
    legalForms: ['Sdn Bhd', 'Sdn. Bhd.', 'Enterprise', 'Trading', 'S/B'],
    cities: ['Kuala Lumpur', 'Petaling Jaya, Selangor', 'Johor Bahru, Johor', 'Shah Alam, Selangor'],
    streets: ['Jalan Ampang', 'Jalan Tun Razak', 'Jalan SS 2/24', 'Jalan Bukit Bintang'],
    taxLabels: ['SST No', 'GST Reg No', 'SST Reg. No.'],
    taxId: (r) => `${r.letters(1)}${r.digits(2)}-${r.digits(4)}-${r.digits(8)}`,
    numberStyles: ['en'],
    dateStyles: ['dmy-slash', 'dmy-dash', 'd-mon-y'],
    postcode: (r) => r.digits(5),
  },
  DE: {
    languages: ['de', 'de', 'en'],
    currency: 'EUR',
    legalForms: ['GmbH', 'AG', 'GmbH & Co. KG', 'UG (haftungsbeschränkt)', 'e.K.'],
    cities: ['Berlin', 'München', 'Hamburg', 'Köln', 'Leipzig'],
    streets: ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Lindenallee', 'Schillerstr.'],
    taxLabels: ['USt-IdNr.', 'USt-ID', 'USt.-Id.-Nr.', 'VAT ID'],
    taxId: (r) => `DE${r.digits(9)}`,
    iban: 'DE99999999999999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-dot', 'd.-month-y', 'iso'],
    postcode: (r) => r.digits(5),
  },
  AT: {
    languages: ['de'],
    currency: 'EUR',
    legalForms: ['GmbH', 'KG', 'OG'],
    cities: ['Wien', 'Graz', 'Linz', 'Salzburg'],
    streets: ['Mariahilfer Straße', 'Landstraße', 'Ringstraße'],
    taxLabels: ['UID', 'UID-Nr.', 'USt-IdNr.'],
    taxId: (r) => `ATU${r.digits(8)}`,
    iban: 'AT999999999999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-dot', 'd.-month-y'],
    postcode: (r) => r.digits(4),
  },
  CH: {
    languages: ['de', 'fr', 'en'],
    currency: 'CHF',
    legalForms: ['AG', 'GmbH', 'SA', 'Sàrl'],
    cities: ['Zürich', 'Basel', 'Bern', 'Lausanne', 'Genève'],
    streets: ['Bahnhofstrasse', 'Seestrasse', 'Rue du Marché', 'Dorfstrasse'],
    taxLabels: ['MWST-Nr.', 'UID', 'No TVA', 'VAT No'],
    taxId: (r) => `CHE-${r.digits(3)}.${r.digits(3)}.${r.digits(3)}`,
    iban: 'CH9999999AAAAAAAAAAAA',
    numberStyles: ['ch', 'en'],
    dateStyles: ['dmy-dot', 'd.-month-y'],
    postcode: (r) => r.digits(4),
  },
  NL: {
    languages: ['nl', 'nl', 'en'],
    currency: 'EUR',
    legalForms: ['B.V.', 'BV', 'N.V.', 'V.O.F.'],
    cities: ['Amsterdam', 'Utrecht', 'Rotterdam', 'Eindhoven', 'Groningen'],
    streets: ['Keizersgracht', 'Dorpsstraat', 'Stationsweg', 'Kerkstraat', 'Parallelweg'],
    taxLabels: ['BTW-nr', 'BTW nummer', 'Btw-id', 'VAT'],
    taxId: (r) => `NL${r.digits(9)}B${r.digits(2)}`,
    iban: 'NL99AAAA9999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-dash', 'd-month-y', 'dmy-slash'],
    postcode: (r) => `${r.int(1000, 9999)} ${r.letters(2)}`,
  },
  BE: {
    languages: ['nl', 'fr'],
    currency: 'EUR',
    legalForms: ['BV', 'NV', 'SRL', 'SA', 'BVBA'],
    cities: ['Antwerpen', 'Gent', 'Bruxelles', 'Liège', 'Leuven'],
    streets: ['Meir', 'Rue Neuve', 'Veldstraat', 'Avenue Louise'],
    taxLabels: ['BTW', 'TVA', 'Ondernemingsnummer', 'BTW BE'],
    taxId: (r) => `BE0${r.digits(3)}.${r.digits(3)}.${r.digits(3)}`,
    iban: 'BE99999999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-slash', 'd-month-y', 'dmy-dot'],
    postcode: (r) => r.digits(4),
  },
  FR: {
    languages: ['fr', 'fr', 'en'],
    currency: 'EUR',
    legalForms: ['SARL', 'SAS', 'S.A.', 'EURL', 'SASU'],
    cities: ['Paris', 'Lyon', 'Nantes', 'Lille', 'Bordeaux'],
    streets: ['rue de la République', 'avenue Jean Jaurès', 'boulevard Voltaire', 'rue des Lilas'],
    taxLabels: ['N° TVA intracommunautaire', 'TVA intracom.', 'N° TVA', 'SIRET'],
    taxId: (r) => `FR${r.digits(11)}`,
    iban: 'FR9999999999999AAAAAAAAAA99',
    numberStyles: ['fr', 'eu'],
    dateStyles: ['dmy-slash', 'd-month-y'],
    postcode: (r) => r.digits(5),
  },
  IT: {
    languages: ['it', 'it', 'en'],
    currency: 'EUR',
    legalForms: ['S.r.l.', 'S.p.A.', 'Srl', 'S.n.c.'],
    cities: ['Milano (MI)', 'Torino (TO)', 'Bologna (BO)', 'Firenze (FI)', 'Roma (RM)'],
    streets: ['Via Roma', 'Corso Garibaldi', 'Via Dante', 'Piazza Duomo', 'Viale Europa'],
    taxLabels: ['P.IVA', 'Partita IVA', 'P. IVA', 'C.F./P.IVA'],
    taxId: (r) => `IT${r.digits(11)}`,
    iban: 'IT99A9999999999AAAAAAAAAAAA',
    numberStyles: ['eu'],
    dateStyles: ['dmy-slash', 'd-month-y', 'dmy-dot'],
    postcode: (r) => r.digits(5),
  },
  ES: {
    languages: ['es', 'es', 'en'],
    currency: 'EUR',
    legalForms: ['S.L.', 'S.A.', 'SL', 'S.L.U.'],
    cities: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao'],
    streets: ['Calle Mayor', 'Avenida de la Constitución', 'Calle Alcalá', 'Paseo de Gracia'],
    taxLabels: ['CIF', 'NIF', 'CIF/NIF', 'NIF-IVA'],
    taxId: (r) => `B${r.digits(8)}`,
    iban: 'ES9999999999999999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-slash', 'd-de-month-de-y', 'dmy-dash'],
    postcode: (r) => r.digits(5),
  },
  PT: {
    languages: ['pt', 'pt', 'en'],
    currency: 'EUR',
    legalForms: ['Lda', 'Lda.', 'S.A.', 'Unipessoal Lda'],
    cities: ['Lisboa', 'Porto', 'Braga', 'Coimbra', 'Faro'],
    streets: ['Rua Augusta', 'Avenida da Liberdade', 'Rua de Santa Catarina', 'Rua do Carmo'],
    taxLabels: ['NIF', 'Contribuinte', 'NIPC', 'N.º Contribuinte'],
    taxId: (r) => portugueseNif(r),
    iban: 'PT99999999999999999999999',
    numberStyles: ['eu'],
    dateStyles: ['dmy-dash', 'dmy-slash', 'iso', 'd-de-month-de-y'],
    postcode: (r) => `${r.int(1000, 9999)}-${r.digits(3)}`,
  },
};

/** A valid Portuguese NIF of a company (prefix 5, mod-11 check digit). */
function portugueseNif(random: Random): string {
  for (;;) {
    const body = `5${random.digits(7)}`;
    const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (9 - i), 0);
    const check = 11 - (sum % 11);
    if (check <= 9) return `${body}${check === 10 || check === 11 ? 0 : check}`;
  }
}

/** An IBAN of the country's layout with correct mod-97 check digits. */
export function makeIban(random: Random, country: Country): string | undefined {
  const layout = COUNTRIES[country].iban;
  if (!layout) return undefined;
  const bban = [...layout.slice(4)].map((c) => (c === 'A' ? random.letters(1) : random.digits(1))).join('');
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** An IBAN printed in groups of four. */
export function groupedIban(iban: string): string {
  return iban.replace(/(.{4})/g, '$1 ').trim();
}

/** Cents as printed in a number style: en 1,234.56; eu 1.234,56; fr 1 234,56; ch 1'234.56; in 1,23,456.78; plain 1234.56. */
export function formatNumber(cents: number, style: NumberStyle): string {
  const negative = cents < 0;
  const whole = String(Math.floor(Math.abs(cents) / 100));
  const fraction = String(Math.abs(cents) % 100).padStart(2, '0');
  const group = (digits: string, separator: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  let printed: string;
  switch (style) {
    case 'en':
      printed = `${group(whole, ',')}.${fraction}`;
      break;
    case 'eu':
      printed = `${group(whole, '.')}.${fraction}`.replace(/\.(\d{2})$/, ',$1');
      break;
    case 'fr':
      printed = `${group(whole, '\u202f')},${fraction}`;
      break;
    case 'ch':
      printed = `${group(whole, "'")}.${fraction}`;
      break;
    case 'in': {
      const last3 = whole.slice(-3);
      const rest = whole.slice(0, -3);
      printed = `${rest ? `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ',')},` : ''}${last3}.${fraction}`;
      break;
    }
    case 'plain':
      printed = `${whole}.${fraction}`;
      break;
  }
  return negative ? `-${printed}` : printed;
}

export interface PrintedDate {
  printed: string;
  iso: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as printed in a style, with the month names of the document's language. */
export function formatDate(date: Date, style: DateStyle, months: readonly string[], shortMonths: readonly string[] | undefined): PrintedDate {
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  const month = months[m - 1]!;
  const short = shortMonths?.[m - 1] ?? month.slice(0, 3);
  const printed = {
    'mdy-slash': `${pad(m)}/${pad(d)}/${y}`,
    'dmy-slash': `${pad(d)}/${pad(m)}/${y}`,
    'dmy-dot': `${pad(d)}.${pad(m)}.${y}`,
    'dmy-dash': `${pad(d)}-${pad(m)}-${y}`,
    iso: `${y}-${pad(m)}-${pad(d)}`,
    'd-month-y': `${d} ${month} ${y}`,
    'month-d-y': `${month} ${d}, ${y}`,
    'd-mon-y': `${pad(d)}-${short}-${y}`,
    'mon-d-y': `${short} ${d}, ${y}`,
    'd-de-month-de-y': `${d} de ${month} de ${y}`,
    'd.-month-y': `${d}. ${month} ${y}`,
    'dd-mon-yy': `${pad(d)}-${short}-${String(y).slice(2)}`,
  }[style];
  return { printed, iso: `${y}-${pad(m)}-${pad(d)}` };
}

/** Ways a currency is printed next to an amount ({n}: the number). */
export const CURRENCY_FORMS: Readonly<Record<string, readonly string[]>> = {
  EUR: ['€ {n}', '{n} €', 'EUR {n}', '{n} EUR', '€{n}'],
  USD: ['${n}', '$ {n}', 'USD {n}', '{n} USD', 'US$ {n}'],
  GBP: ['£{n}', '£ {n}', 'GBP {n}', '{n} GBP'],
  INR: ['₹ {n}', '₹{n}', 'Rs. {n}', 'Rs {n}', 'INR {n}'],
  CHF: ['CHF {n}', '{n} CHF', 'Fr. {n}', 'CHF {n}'],
  MYR: ['RM {n}', 'RM{n}', 'MYR {n}', 'RM {n}'],
};

export const TAX_RATES: Readonly<Record<Country, readonly number[]>> = {
  US: [0, 625, 800, 888, 725],
  GB: [2000],
  IN: [1800, 1200, 500, 2800],
  MY: [600, 800, 1000],
  DE: [1900, 700],
  AT: [2000, 1000],
  CH: [810, 260],
  NL: [2100, 900],
  BE: [2100, 600],
  FR: [2000, 1000, 550],
  IT: [2200, 1000],
  ES: [2100, 1000],
  PT: [2300, 1300, 600],
};

const NAME_PARTS = {
  first: ['Northwind', 'Blue Harbor', 'Kestrel', 'Silverline', 'Oakridge', 'Brightpath', 'Redwood', 'Lumen', 'Meridian', 'Granite', 'Falcon', 'Evergreen', 'Atlas', 'Cobalt', 'Juniper', 'Sterling', 'Orchid', 'Summit', 'Pioneer', 'Harbourside'],
  domain: ['Supplies', 'Consulting', 'Logistics', 'Software', 'Trading', 'Engineering', 'Print', 'Office Solutions', 'Technologies', 'Design Studio', 'Services', 'Systems', 'Foods', 'Media'],
  local: {
    de: ['Müller', 'Schneider', 'Becker', 'Hoffmann', 'Wagner', 'Krüger'],
    nl: ['de Vries', 'Jansen', 'Bakker', 'Visser', 'van Dijk', 'Smit'],
    fr: ['Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Fontaine'],
    it: ['Rossi', 'Bianchi', 'Ferrari', 'Esposito', 'Romano', 'Colombo'],
    es: ['García', 'Martínez', 'López', 'Sánchez', 'Romero', 'Navarro'],
    pt: ['Silva', 'Santos', 'Ferreira', 'Costa', 'Oliveira', 'Rodrigues'],
    en: ['Patel', 'Sharma', 'Tan', 'Lim', 'Walker', 'Harrison'],
  } as Record<Language, readonly string[]>,
  trade: {
    de: ['Bürotechnik', 'Elektro', 'Druckerei', 'Haustechnik', 'Beratung'],
    nl: ['Installatietechniek', 'Drukkerij', 'Adviesbureau', 'Bouw', 'Transport'],
    fr: ['Imprimerie', 'Conseil', 'Électricité', 'Transports', 'Informatique'],
    it: ['Tipografia', 'Consulenze', 'Impianti', 'Trasporti', 'Informatica'],
    es: ['Imprenta', 'Consultoría', 'Instalaciones', 'Transportes', 'Informática'],
    pt: ['Tipografia', 'Consultoria', 'Instalações', 'Transportes', 'Informática'],
    en: ['Stationers', 'Electricals', 'Hardware', 'Packaging', 'Textiles'],
  } as Record<Language, readonly string[]>,
};

/** A company name of the country: an invented brand or a family name with a trade, and usually its legal form. */
export function companyName(random: Random, country: Country, language: Language): string {
  const info = COUNTRIES[country];
  const base = random.chance(0.6)
    ? `${random.pick(NAME_PARTS.first)} ${random.pick(NAME_PARTS.domain)}`
    : language === 'en'
      ? `${random.pick(NAME_PARTS.local.en)} ${random.pick(NAME_PARTS.trade.en)}`
      : `${random.pick(NAME_PARTS.trade[language])} ${random.pick(NAME_PARTS.local[language])}`;
  return random.chance(0.85) ? `${base} ${random.pick(info.legalForms)}` : base;
}

/** A person's name, for customers who are not companies. */
export function personName(random: Random): string {
  return `${random.pick(['Anna', 'Lucas', 'Sofia', 'Pieter', 'Marie', 'Rahul', 'Emma', 'Tomás', 'Giulia', 'James'])} ${random.pick(['Jansen', 'Dupont', 'Rossi', 'Kumar', 'Becker', 'Smith', 'Costa', 'García', 'Tan'])}`;
}

export interface Address {
  lines: string[];
}

export function address(random: Random, country: Country): Address {
  const info = COUNTRIES[country];
  const number = random.int(1, 240);
  const street = random.pick(info.streets);
  const streetLine = ['US', 'GB', 'IN', 'MY'].includes(country) ? `${number} ${street}` : ['FR', 'BE'].includes(country) && /^(rue|avenue|boulevard)/i.test(street) ? `${number} ${street}` : `${street} ${number}`;
  const city = random.pick(info.cities);
  const postcode = info.postcode(random);
  const cityLine = ['US'].includes(country) ? `${city} ${postcode}` : country === 'GB' ? `${city} ${postcode}` : country === 'IN' ? `${city} - ${postcode}` : `${postcode} ${city}`;
  return { lines: [streetLine, cityLine] };
}
