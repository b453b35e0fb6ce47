import rehypeRaw from 'rehype-raw';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { rehypeBuyLinks, renderAnswerHtml } from '../../src/index.js';
import { toolResults } from './fixtures.js';

/**
 * The rehype path as Streamdown runs it (react-markdown's parse, remark-gfm, raw HTML parsed
 * by rehype-raw), with rehypeBuyLinks last. Serialized here where React would create the
 * same elements from the tree.
 */
const rehypePipeline = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeBuyLinks, { toolResults })
  .use(rehypeStringify);

/** The two ways an application shows an answer. */
export const RENDERERS: Readonly<Record<string, (answer: string) => string>> = {
  renderAnswerHtml: (answer) => renderAnswerHtml(answer, toolResults),
  rehypeBuyLinks: (answer) => String(rehypePipeline.processSync(answer)),
};
