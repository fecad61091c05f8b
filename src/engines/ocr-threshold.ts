/**
 * How tesseract tells ink from paper. global: one threshold for the whole image (Otsu), which suits
 * scans. adaptive: a threshold from each pixel's neighbourhood (Sauvola), which keeps the print of
 * a photo whose paper is lit unevenly or lies on a darker table, where one threshold turns a shaded
 * part of the slip black or white and tesseract reads nothing there.
 */
export type OcrThreshold = 'global' | 'adaptive';

/** Tesseract's thresholding_method for each (0 Otsu, 2 Sauvola; both in tesseract 5 and tesseract.js). */
export const THRESHOLDING_METHOD: Readonly<Record<OcrThreshold, string>> = { global: '0', adaptive: '2' };
