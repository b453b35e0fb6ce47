// history.ts: show a stored answer again, its buy links read fresh (offer links are short-lived).
import { CatalogClient } from '@catalogkit/core';
import {
  type BuyLinkSources,
  finalizeBuyLinks,
  refreshBuyLinks,
  renderAnswerHtml,
} from '@catalogkit/links';

const client = new CatalogClient(); // reads CATALOG_API_KEY, CATALOG_MCP_URL

/** A turn as the app stored it: the model's text (with [[buy:…]] references) and its tool results. */
export interface StoredTurn {
  text: string;
  toolResults: BuyLinkSources;
}

/** The stored answer as HTML, with the links the service gives now (one lookup_catalog call). */
export async function showStoredAnswer(turn: StoredTurn): Promise<string> {
  const fresh = await refreshBuyLinks(client, turn);
  // 'lookup_unavailable': the service cannot check them, so every link became text.
  // Products gone since (fresh.gone) read "(no longer available)", never the old URL.
  const { text } = finalizeBuyLinks(fresh.text, fresh.sources);
  return renderAnswerHtml(text, fresh.sources);
}
