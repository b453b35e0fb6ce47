// Runs in Chromium, bundled by esbuild: a host page built on the ext-apps host side
// (AppBridge, PostMessageTransport), as MCP Apps hosts embed a view.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What the page records for the test: the links the view asked the host to open. */
interface HostRecord {
  opened: string[];
  initialized: boolean;
  sizes: number[];
}

declare global {
  interface Window {
    host: HostRecord;
    showApp(
      html: string,
      input: Record<string, unknown>,
      result: CallToolResult,
      openLinks: boolean,
    ): Promise<void>;
  }
}

window.host = { opened: [], initialized: false, sizes: [] };

window.showApp = async (html, input, result, openLinks) => {
  const iframe = document.createElement('iframe');
  // A sandbox without allow-same-origin, as hosts give views: an opaque origin of its own.
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.width = '800px';
  iframe.style.height = '600px';
  document.body.append(iframe);
  const view = iframe.contentWindow;
  if (!view) throw new Error('the iframe has no window');
  const bridge = new AppBridge(
    null,
    { name: 'catalogkit-test-host', version: '1.0.0' },
    openLinks ? { openLinks: {} } : {},
  );
  bridge.onopenlink = async ({ url }) => {
    window.host.opened.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) window.host.sizes.push(height);
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => {
      window.host.initialized = true;
      resolve();
    };
  });
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};
