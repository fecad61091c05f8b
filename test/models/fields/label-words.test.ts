import { describe, expect, it } from 'vitest';
import { respellLabelWord } from '../../../src/models/fields/label-words.js';

const word = (text: string, confidence: number) => ({ text, confidence, box: { left: 0, top: 0, width: 10, height: 10 } });

describe('label words OCR misread', () => {
  it('are read as the label word they match stroke for stroke, in the case they were printed in', () => {
    expect(respellLabelWord(word('lota!', 0.83)).text).toBe('total');
    expect(respellLabelWord(word('loial', 0.76)).text).toBe('total');
    expect(respellLabelWord(word('Nel', 0.8)).text).toBe('Net');
    expect(respellLabelWord(word('GSI', 0.86)).text).toBe('GST');
    expect(respellLabelWord(word('T0TAL', 0.7)).text).toBe('TOTAL');
  });

  it('stay as read when OCR was sure of them or they match no label word', () => {
    expect(respellLabelWord(word('Nel', 0.95)).text).toBe('Nel');
    expect(respellLabelWord(word('Local', 0.5)).text).toBe('Local');
    expect(respellLabelWord(word('TOTAL', 0.5)).text).toBe('TOTAL');
  });
});
