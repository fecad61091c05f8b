import { SaxesParser } from 'saxes';

/** An element of a parsed XML document: its local name, namespace, attributes by local name, children and text. */
export interface XmlElement {
  name: string;
  namespace: string;
  attributes: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** The element's own text (character data directly inside it), trimmed. */
  text: string;
}

/**
 * Limits on what an embedded or uploaded invoice XML may be: a real invoice of thousands of lines
 * stays far below them; a hostile file (entity bombs, deep nesting, huge text) is refused before
 * it costs memory or time.
 */
export const XML_LIMITS = {
  /** Bytes of the whole document. */
  maxBytes: 16 * 1024 * 1024,
  /** Nesting of elements (an EXTENDED CII invoice nests about 12 deep). */
  maxDepth: 64,
  /** Elements in the whole document. */
  maxElements: 500_000,
  /** Characters of one element's text (a free-text note is a few thousand). */
  maxTextLength: 256 * 1024,
} as const;

export type XmlParse = { ok: true; root: XmlElement } | { ok: false; reason: string };

class XmlRefused extends Error {}

/**
 * Parses `data` strictly (well-formed XML with namespaces) into a small tree. A document that
 * declares a DTD is refused outright: invoices never need one, and a DTD is what entity expansion
 * and external entities come from. Entities other than the five predefined ones and character
 * references are then undefined and fail the parse, so nothing is ever expanded or fetched.
 */
export function parseXml(data: Uint8Array | string): XmlParse {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (size > XML_LIMITS.maxBytes) return { ok: false, reason: `the XML is ${size} bytes, more than the ${XML_LIMITS.maxBytes} allowed` };
  const text = typeof data === 'string' ? data : decode(data);
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  const refuse = (reason: string) => {
    throw new XmlRefused(reason);
  };
  parser.on('doctype', () => refuse('the XML declares a DTD (document type declaration), which invoice XML never needs'));
  parser.on('opentag', (tag) => {
    if (stack.length >= XML_LIMITS.maxDepth) refuse(`the XML nests elements more than ${XML_LIMITS.maxDepth} deep`);
    if (++elements > XML_LIMITS.maxElements) refuse(`the XML has more than ${XML_LIMITS.maxElements} elements`);
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) attributes.set(attribute.local, attribute.value);
    const element: XmlElement = { name: tag.local, namespace: tag.uri, attributes, children: [], text: '' };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (chunk) => {
    const current = stack.at(-1);
    if (!current) return;
    if (current.text.length + chunk.length > XML_LIMITS.maxTextLength) refuse(`an element of the XML holds more than ${XML_LIMITS.maxTextLength} characters of text`);
    current.text += chunk;
  });
  parser.on('cdata', (chunk) => {
    const current = stack.at(-1);
    if (current && current.text.length + chunk.length <= XML_LIMITS.maxTextLength) current.text += chunk;
  });
  parser.on('closetag', () => {
    const element = stack.pop();
    if (element) element.text = element.text.trim();
  });
  parser.on('error', (err) => {
    throw new XmlRefused(`the XML is not well-formed: ${err.message}`);
  });
  try {
    // A byte order mark is no part of the document.
    parser.write(text.replace(/^\uFEFF/, '')).close();
  } catch (err) {
    return { ok: false, reason: err instanceof XmlRefused ? err.message : `the XML could not be read: ${String(err)}` };
  }
  return root ? { ok: true, root } : { ok: false, reason: 'the XML has no root element' };
}

/**
 * The document's characters: UTF-16 when a byte order mark says so, a Latin encoding when the XML
 * declaration names one (older German tools write ISO-8859-1), else UTF-8 (what invoices use).
 */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const declaration = /^<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(Buffer.from(bytes.subarray(0, 200)).toString('latin1'));
  const latin = declaration && /^(?:iso-?8859-(?:1|15)|latin-?1|windows-1252|cp1252)$/i.test(declaration[1]!);
  return new TextDecoder(latin ? 'windows-1252' : 'utf-8').decode(bytes);
}

/** The first descendant along a path of local names ("A/B/C"), undefined when any step is missing. */
export function child(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let current = element;
  for (const name of path.split('/')) {
    current = current?.children.find((c) => c.name === name);
    if (!current) return undefined;
  }
  return current;
}

/** Every element at the end of a path of local names. */
export function children(element: XmlElement | undefined, path: string): XmlElement[] {
  if (!element) return [];
  const steps = path.split('/');
  let level: XmlElement[] = [element];
  for (const name of steps) level = level.flatMap((e) => e.children.filter((c) => c.name === name));
  return level;
}

/** The text at a path, undefined when absent or empty. */
export function textAt(element: XmlElement | undefined, path: string): string | undefined {
  const found = child(element, path);
  return found && found.text !== '' ? found.text : undefined;
}
