import { describe, expect, it } from 'vitest';
import { respellKnownWords } from '../../src/models/known-words.js';

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
});
