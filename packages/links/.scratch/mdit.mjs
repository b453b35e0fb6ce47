import MarkdownIt from 'markdown-it';
const md = new MarkdownIt({ html: true, linkify: true });
export const parse = (t) => md.parse(t, {});
