// Small DOM helpers shared by the reviewer page's modules.

export const $ = (selector) => document.querySelector(selector);

/** An element with attributes (on* are listeners) and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

export function say(text, isError = false) {
  const message = $('#message');
  message.textContent = text;
  message.classList.toggle('error', isError);
}

export function markChanged(input, changed) {
  input.classList.toggle('changed', changed);
}
