/**
 * Labels of the EN 16931 terms in Portuguese and Spanish as the printed fiscal documents of Brazil
 * (DANFE of an NF-e, NFC-e, DANFSe of an NFS-e) and Mexico (the printed CFDI) word them, and the
 * labels printed beside those terms that name no field: a number's series, a fiscal folio (the
 * CFDI's UUID), the accrual date, the net after withheld taxes. Sources are regexes over `plain`
 * text (lower case, no accents).
 */
import type { LabelCategory, LabelDefinition } from './label-definition.js';

function labels(category: LabelCategory, strength: number, sources: readonly string[]): LabelDefinition[] {
  return sources.map((source) => ({ category, strength, source }));
}

/** "Número" and its signs: "Nº", "N.º", "No.", "Núm.". */
const NUMBER = '(?:numero|num\\.?|n\\s?\\.?\\s?[o°º]\\.?|no\\.?)';
/** The kinds of Brazilian fiscal note: NF-e, NFC-e, NFS-e, and the words they abbreviate. */
const NOTE = '(?:nf\\s*-?\\s*e|nfc\\s*-?\\s*e|nfs\\s*-?\\s*e|nota\\s*fiscal(?:\\s*(?:de\\s*)?(?:servicos?|consumidor))?(?:\\s*eletronica)?)';

export const FISCAL_PRINT_LABELS: readonly LabelDefinition[] = [
  // BT-1: "NFC-e Nº 2", "NÚMERO DA NFS-e", "Nº da nota"; the CFDI's "FOLIO".
  ...labels('InvoiceId', 1, [`${NOTE}\\s*${NUMBER}`, `${NUMBER}\\s*(?:d[ao]\\s*)?${NOTE}`, `${NUMBER}\\s*(?:d[ao]\\s*)?nota`]),
  ...labels('InvoiceId', 0.85, ['folio']),

  // BT-2: "DATA E HORA DA EMISSÃO", "Emissão: 01/01/2020", "FECHA Y HORA DE EMISIÓN".
  ...labels('InvoiceDate', 1, [`data\\s*(?:e\\s*hora\\s*)?(?:de\\s*|da\\s*)?emissao(?:\\s*d[ao]\\s*${NOTE})?`, 'fecha\\s*(?:y\\s*hora\\s*)?(?:de\\s*)?emision']),
  ...labels('InvoiceDate', 0.75, ['emissao', 'emision']),

  // The seller's and the buyer's names: "NOME / RAZÃO SOCIAL", "Nome Empresarial" (a party's
  // block names which), the NFS-e's "TOMADOR" (the buyer) and the CFDI's "RECEPTOR".
  ...labels('PartyName', 0.95, ['razao\\s*social', 'nome\\s*empresarial']),
  ...labels('CustomerName', 1, ['tomador(?:\\s*do\\s*servico)?', 'receptor']),
  ...labels('VendorName', 1, [`emitente\\s*d[ao]\\s*${NOTE}`]),

  // BT-112: "VALOR TOTAL DA NOTA", "VALOR TOTAL DA NFS-e".
  ...labels('InvoiceTotal', 1, [`valor\\s*total\\s*(?:d[ao]\\s*)?(?:nota|${NOTE})`]),
  // BT-110, the CFDI's tax: "TOTAL IMP. TRASLADADOS" (the taxes carried over to the buyer).
  ...labels('TotalTax', 1, ['total\\s*(?:de\\s*)?imp(?:uestos|\\.)?\\s*trasladados']),
  // The same label set over two lines ("TOTAL IMP." over "TRASLADADOS:"), its amount beside the
  // first: the total of the taxes (the withheld ones are labelled apart, included-tax-labels.ts).
  ...labels('TotalTax', 0.9, ['total\\s*(?:de\\s*)?imp\\.']),

  // Printed beside the terms, and none of them: the number's series ("SÉRIE 1", "SERIE: A"), the
  // CFDI's fiscal folio (a UUID), the NFS-e's accrual date ("COMPETÊNCIA"), the net after the
  // taxes the buyer withholds ("Valor Líquido da NFS-e").
  ...labels('Other', 1, [
    `serie(?:\\s*d[ao]\\s*(?:dps|${NOTE}))?`,
    'folio\\s*fiscal',
    `(?:data\\s*(?:de\\s*|da\\s*)?)?competencia(?:\\s*d[ao]\\s*${NOTE})?`,
    `valor\\s*liquido\\s*d[ao]\\s*(?:nota|${NOTE})`,
    // The other cells of a party's or a note's grid: their labels are no value of the cell beside them.
    'endereco',
    'municipio(?:\\s*/\\s*sigla\\s*uf)?',
    'bairro(?:\\s*/\\s*distrito)?',
    'cep',
    'telefone',
    'fone(?:\\s*/\\s*fax)?',
    'inscricao\\s*(?:estadual|municipal)',
    'indicador\\s*municipal',
    'natureza\\s*da\\s*operacao',
    'chave\\s*de\\s*acesso',
    `situacao(?:\\s*d[ao]\\s*${NOTE})?`,
    'finalidade',
  ]),
];
