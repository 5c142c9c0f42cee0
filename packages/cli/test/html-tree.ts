import { type DefaultTreeAdapterMap, parse, parseFragment } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
export type Element = DefaultTreeAdapterMap['element'];

/** A character reference left in text after parsing: a sign that the text was escaped twice. */
export const LITERAL_ENTITY = /&(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);/i;

const childrenOf = (node: Node): Node[] => {
  const children = 'childNodes' in node ? [...node.childNodes] : [];
  if (node.nodeName === 'template' && 'content' in node) children.push(...node.content.childNodes);
  return children;
};

/** Every element of a tree, depth-first in document order. */
export function elements(root: Node): Element[] {
  const found: Element[] = [];
  const walk = (node: Node) => {
    if ('tagName' in node) found.push(node);
    for (const child of childrenOf(node)) walk(child);
  };
  walk(root);
  return found;
}

/** The text nodes' values of a tree, outside <script> and <style>. */
export function textNodes(root: Node): string[] {
  const found: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text' && 'value' in node) found.push(node.value);
    for (const child of childrenOf(node)) walk(child);
  };
  walk(root);
  return found;
}

/** The concatenated text of an element (like textContent). */
export const textOf = (node: Node): string => textNodes(node).join('');

export const attribute = (element: Element, name: string): string | undefined => element.attrs.find((attr) => attr.name === name)?.value;

export const hasClass = (element: Element, name: string): boolean => (attribute(element, 'class') ?? '').split(/\s+/).includes(name);

/** Elements by tag name and optionally a class. */
export const select = (root: Node, tag: string, className?: string): Element[] => elements(root).filter((element) => element.tagName === tag && (className === undefined || hasClass(element, className)));

/** Parses a whole HTML document with parse5 (the WHATWG algorithm browsers use). */
export const parseDocument = (html: string): DefaultTreeAdapterMap['document'] => parse(html);

/** Parses an HTML fragment (e.g. an inline SVG) with parse5. */
export const parseHtmlFragment = (html: string): DefaultTreeAdapterMap['documentFragment'] => parseFragment(html);

/** Text nodes and attribute values of a tree that still hold a character reference after parsing. */
export function literalEntities(root: Node): string[] {
  const texts = textNodes(root).filter((text) => LITERAL_ENTITY.test(text));
  const attributes = elements(root).flatMap((element) => element.attrs.filter((attr) => LITERAL_ENTITY.test(attr.value)).map((attr) => `${element.tagName}[${attr.name}="${attr.value}"]`));
  return [...texts, ...attributes];
}
