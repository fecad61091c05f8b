import { randomUUID } from 'node:crypto';
import { invalidField } from '../../http/problem.js';
import type { TranscriptAnnotation, TranscriptItem } from '../../domain/transcript-entities.js';
import type { TranscriptEditsBody } from './review.schemas.js';

export interface Author {
  userId: number;
  userName: string;
  at: Date;
}

type Word = TranscriptItem['displayWords'][number];

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * The display words of an edited segment text. When the text has as many words as before, each
 * keeps its timing (a corrected spelling); otherwise the words are spread evenly over the segment.
 * A word the reviewer wrote is certain: confidence 1. originalWords keep what was recognized.
 */
function displayWordsFor(text: string, item: TranscriptItem): Word[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  const before = item.displayWords;
  if (tokens.length === before.length) {
    return tokens.map((token, i) => (token === before[i]!.text ? before[i]! : { ...before[i]!, text: token, confidence: 1 }));
  }
  const step = tokens.length ? item.duration / tokens.length : 0;
  return tokens.map((token, i) => ({ text: token, offsetInSeconds: round(item.start + i * step), durationInSeconds: round(step), confidence: 1 }));
}

/** Segments with their text and speaker edits applied; a speaker must be one of the task's. */
export function applySegmentEdits(
  items: readonly TranscriptItem[],
  edits: TranscriptEditsBody['segments'],
  speakerIds: ReadonlySet<string>,
): TranscriptItem[] {
  const result = [...items];
  edits.forEach((edit, i) => {
    const item = result[edit.index];
    if (!item) throw invalidField(`segments.${i}.index`, `the transcript has ${items.length} segments`);
    if (edit.speakerId !== undefined && !speakerIds.has(edit.speakerId)) {
      throw invalidField(`segments.${i}.speakerId`, `${edit.speakerId} is not a speaker of the task`);
    }
    const text = edit.displayText ?? item.displayText;
    result[edit.index] = {
      ...item,
      speakerId: edit.speakerId ?? item.speakerId,
      displayText: text,
      displayWords: text === item.displayText ? item.displayWords : displayWordsFor(text, item),
    };
  });
  return result;
}

/**
 * Annotations after removals, changes (by uniqueId) and additions, each recording who created or
 * last changed it and when. Times must lie within the recording.
 */
export function applyAnnotationEdits(
  annotations: readonly TranscriptAnnotation[],
  body: Pick<TranscriptEditsBody, 'annotations' | 'removeAnnotations'>,
  author: Author,
  totalTimeInSeconds: number,
): TranscriptAnnotation[] {
  const byId = new Map(annotations.map((a) => [a.uniqueId, a]));
  body.removeAnnotations.forEach((uniqueId, i) => {
    if (!byId.delete(uniqueId)) throw invalidField(`removeAnnotations.${i}`, `no annotation ${uniqueId}`);
  });
  const at = author.at.toISOString();
  body.annotations.forEach(({ uniqueId, content, start, end }, i) => {
    if (start > end) throw invalidField(`annotations.${i}.start`, 'start is after end');
    if (end > totalTimeInSeconds) throw invalidField(`annotations.${i}.end`, `the recording is ${totalTimeInSeconds} s long`);
    if (uniqueId === undefined) {
      const id = randomUUID();
      byId.set(id, {
        uniqueId: id,
        content,
        start,
        end,
        createdBy: author.userId,
        createdByUserName: author.userName,
        createdOn: at,
        modifiedBy: null,
        modifiedByUserName: null,
        modifiedOn: null,
      });
      return;
    }
    const existing = byId.get(uniqueId);
    if (!existing) throw invalidField(`annotations.${i}.uniqueId`, `no annotation ${uniqueId}`);
    if (existing.content === content && existing.start === start && existing.end === end) return;
    byId.set(uniqueId, { ...existing, content, start, end, modifiedBy: author.userId, modifiedByUserName: author.userName, modifiedOn: at });
  });
  return [...byId.values()];
}
