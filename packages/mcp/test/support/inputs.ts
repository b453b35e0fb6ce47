export {
  searchCatalog,
  searchWebsites,
  updateCollection,
} from '../../../core/test/support/strict-inputs.js';

/** The text of a tool result's content (the catalog tools answer with one text part). */
export function textOf(result: object): string {
  const content = ('content' in result ? result.content : []) as { type: string; text?: string }[];
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
