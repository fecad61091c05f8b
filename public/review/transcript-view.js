// A recording's review: the audio, its segments (speaker and text to edit) and its annotations.
import { h, markChanged } from './dom.js';

function seconds(value) {
  return `${Math.floor(value / 60)}:${(value % 60).toFixed(1).padStart(4, '0')}`;
}

/** The transcript review of `task`: render() gives its elements, body() what changed as the transcript PATCH body. */
export function transcriptReview(task) {
  const segmentEdits = new Map();
  const removedAnnotations = new Set();

  function annotationRow(annotation, isNew = false) {
    const field = (name, value, type = 'text') =>
      h('input', { name, type, step: type === 'number' ? '0.1' : undefined, value, oninput: (e) => { row.dataset.changed = 'true'; markChanged(e.target, true); } });
    const row = h(
      'div',
      { class: 'annotation', 'data-unique-id': annotation.uniqueId, 'data-changed': isNew ? 'true' : undefined },
      field('content', annotation.content),
      field('start', annotation.start, 'number'),
      field('end', annotation.end, 'number'),
      h('button', { type: 'button', onclick: () => { if (annotation.uniqueId) removedAnnotations.add(annotation.uniqueId); row.remove(); } }, 'Remove'),
    );
    return row;
  }

  let annotations;
  function render() {
    const { transcript } = task;
    // A signed link of this service: used by path, so it works whatever base URL it was signed with.
    const link = task.fileUrl && new URL(task.fileUrl);
    const audio = h('audio', { controls: true, preload: 'metadata', src: link ? link.pathname + link.search : undefined });
    const segments = transcript.transcripts.map((segment, index) => {
      const edit = () => segmentEdits.get(index) ?? segmentEdits.set(index, { index }).get(index);
      const speaker = h(
        'select',
        { onchange: (e) => { edit().speakerId = e.target.value; markChanged(e.target, true); } },
        ...transcript.speakers.map((s) => h('option', { value: s.speakerId, selected: s.speakerId === segment.speakerId }, s.speakerName)),
      );
      const text = h('textarea', { rows: 2, 'data-segment': index, oninput: (e) => { edit().displayText = e.target.value; markChanged(e.target, true); } }, segment.displayText);
      const seek = h('button', { type: 'button', onclick: () => { audio.currentTime = segment.start; audio.play(); } }, seconds(segment.start));
      return h('div', { class: 'segment' }, seek, speaker, text);
    });
    annotations = h('div', { class: 'segments', id: 'annotations' }, ...transcript.annotations.map((a) => annotationRow(a)));
    const add = h('button', { type: 'button', onclick: () => annotations.append(annotationRow({ content: '', start: audio.currentTime, end: audio.currentTime }, true)) }, 'Add annotation');
    return [audio, h('div', { class: 'segments' }, ...segments), h('h3', {}, 'Annotations'), annotations, add];
  }

  function body() {
    const changed = [...annotations.querySelectorAll('[data-changed]')].map((row) => ({
      ...(row.dataset.uniqueId ? { uniqueId: row.dataset.uniqueId } : {}),
      content: row.querySelector('[name=content]').value,
      start: Number(row.querySelector('[name=start]').value),
      end: Number(row.querySelector('[name=end]').value),
    }));
    return { version: task.transcript.version, segments: [...segmentEdits.values()], annotations: changed, removeAnnotations: [...removedAnnotations] };
  }

  /** After a save: the saved transcript, nothing changed any more. */
  function saved(transcript) {
    task.transcript = transcript;
    segmentEdits.clear();
    removedAnnotations.clear();
  }

  return { render, body, saved };
}
