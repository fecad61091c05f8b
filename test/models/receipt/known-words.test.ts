import { describe, expect, it } from 'vitest';
import { respellAddressWords, respellKnownWords } from '../../../src/models/receipt/known-words.js';

describe('words of shop names and addresses misread by one letter', () => {
  it('spells a long word one look-alike letter away from a known word as that word, in the case it was printed in', () => {
    expect(respellKnownWords('AIK HUAT HARDMARE ENTERPRISE')).toBe('AIK HUAT HARDWARE ENTERPRISE');
    expect(respellKnownWords('VERBENA CONFECTIUNERY SDN BHD')).toBe('VERBENA CONFECTIONERY SDN BHD');
    expect(respellKnownWords('12, Jalan Tampoi 7/4,Kawasan Perindustrlan')).toBe('12, Jalan Tampoi 7/4,Kawasan Perindustrian');
    expect(respellKnownWords('FASARAYA BORONG')).toBe('PASARAYA BORONG');
    expect(respellKnownWords('Pizzerla Napoli, Backerel Schmidt')).toBe('Pizzeria Napoli, Backerei Schmidt');
  });

  it('leaves words of their own: short ones, a letter of another shape away, or not in the vocabulary', () => {
    expect(respellKnownWords("BERRY'S CARE HOUSE")).toBe("BERRY'S CARE HOUSE");
    expect(respellKnownWords('POLY CHOPPING BOARD')).toBe('POLY CHOPPING BOARD');
    expect(respellKnownWords('SANJUNG REALITI, GERBANG ALAF')).toBe('SANJUNG REALITI, GERBANG ALAF');
    expect(respellKnownWords('HARDWARES TRADINGS')).toBe('HARDWARES TRADINGS');
    // Known words never respell one another.
    expect(respellKnownWords('TRADING TRADERS PASTELARIA PASTELERIA BACKEREI BAECKEREI')).toBe('TRADING TRADERS PASTELARIA PASTELERIA BACKEREI BAECKEREI');
  });

  it('puts back a letter OCR lost inside a long known word, not one that ends it (a word of its own, singular)', () => {
    expect(respellKnownWords('Kawasan Perindustian Tampoi')).toBe('Kawasan Perindustrian Tampoi');
    expect(respellKnownWords('GOLDEN HOLDING PRODUCT')).toBe('GOLDEN HOLDING PRODUCT');
  });

  it('reads one letter OCR split in two as that letter', () => {
    expect(respellKnownWords('No.2 Jalan Temeriggung 19/9')).toBe('No.2 Jalan Temenggung 19/9');
    expect(respellKnownWords('PASARAYA BORONG')).toBe('PASARAYA BORONG');
  });
});

describe('words of addresses misread', () => {
  it('puts back a letter read as a space inside a long known word', () => {
    expect(respellAddressWords('NO.12,JA.AN SS4C/5,PETALING JAYA SE ANGOR DARUL EHSAN')).toBe('NO.12,JALAN SS4C/5,PETALING JAYA SELANGOR DARUL EHSAN');
    // Pairs overlap: the word before the broken one does not hide it.
    expect(respellAddressWords('47400 JAYA SE ANGOR')).toBe('47400 JAYA SELANGOR');
    // Two known words stay two.
    expect(respellAddressWords('KAWASAN INDUSTRI')).toBe('KAWASAN INDUSTRI');
  });

  it('spells a two-word place name or an abbreviation misread by one look-alike letter, read beside its pair', () => {
    expect(respellAddressWords('SETIA ALAM SEKSYEN U13 40170 KOTA SHAH ALAN')).toBe('SETIA ALAM SEKSYEN U13 40170 KOTA SHAH ALAM');
    expect(respellAddressWords('Bandar Mankota Cheras, Petaling Jaya')).toBe('Bandar Mahkota Cheras, Petaling Jaya');
    expect(respellAddressWords('SELANGOR 1237-TNN INDAH PERDANA')).toBe('SELANGOR 1237-TMN INDAH PERDANA');
    expect(respellAddressWords('40170 SHAH ALA')).toBe('40170 SHAH ALAM');
  });

  it('spells a long place name with a letter misread in each of its words, a shorter one only with one', () => {
    expect(respellAddressWords('(X) U13/X, SEIIA ALA SEKSYEN U13')).toBe('(X) U13/X, SETIA ALAM SEKSYEN U13');
    expect(respellAddressWords('40170 SHAN ALA')).toBe('40170 SHAN ALA');
  });

  it('leaves short words that are words of their own', () => {
    expect(respellAddressWords('12 Alan Turing Way, Java Street, So Good Road')).toBe('12 Alan Turing Way, Java Street, So Good Road');
    expect(respellAddressWords('Shah Alam, Selangor Darul Ehsan')).toBe('Shah Alam, Selangor Darul Ehsan');
  });
});
