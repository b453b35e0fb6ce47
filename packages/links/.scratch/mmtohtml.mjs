export { parse } from './mm.mjs';
export { toHast } from 'mdast-util-to-hast';
export { toHtml } from 'hast-util-to-html';
