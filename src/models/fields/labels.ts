/**
 * Label vocabularies several models read (regex sources, matched case-insensitively at the start
 * of a line), in the five languages of the OCR. "n.º", "nº", "no." all abbreviate "number".
 */

export const NUMBER_WORD = '(?:number|no|nr|num|n\\.?\\s?[º°o]|número|numero|numéro|#|id)';

export const TAX_ID_LABEL = `(?:vat|tax|tin)\\s*(?:id|no|number|reg(?:istration)?(?:\\s*(?:no|number))?)|nif|nipc|${NUMBER_WORD}?\\s*(?:de\\s+)?contribuinte|ust-?id(?:nr)?|steuer-?nr|cif|n[º°o]?\\s*tva`;

export const BIRTH_DATE_LABELS = [
  'date\\s*of\\s*birth',
  'birth\\s*date',
  'd\\.?o\\.?b\\.?',
  'born(?:\\s*on)?',
  'data\\s*de\\s*nascimento',
  'date\\s*de\\s*naissance',
  'n[ée]\\(?e?\\)?\\s*le',
  'geburtsdatum',
  'geboren(?:\\s*am)?',
  'fecha\\s*de\\s*nacimiento',
];

export const SURNAME_LABELS = ['surnames?', 'last\\s*name', 'family\\s*name', 'apelidos?', 'nom(?:\\s*de\\s*famille)?', 'familienname', 'nachname', 'apellidos?'];

export const GIVEN_NAME_LABELS = ['given\\s*names?', 'first\\s*names?', 'nomes?\\s*pr[oó]prios?', 'pr[ée]noms?', 'vornamen?', 'nombres?'];

/** Labels followed by a person's whole name. */
export const FULL_NAME_LABELS = [
  '(?:full\\s*)?name',
  'nome(?:\\s*completo)?',
  'nom\\s*complet',
  'nombre(?:\\s*completo)?',
  'patient',
  'paciente',
  'employee',
  'funcion[aá]rio',
  'holder',
  'titular',
  'signed',
  'assinado',
];

export const PHONE_LABELS = ['phone', 'telephone', 'tel\\.?', 'mobile', 'cell', 'fax', 'telefone', 'telem[oó]vel', 'tlm\\.?', 't[ée]l[ée]phone', 'portable', 'telefon', 'handy', 'tel[ée]fono', 'm[oó]vil'];
