/*
 * The corpus (issue 36): agents written in the styles people write them, run through the real
 * provider and adapter packages against the kit's stand-in and the emulator. Correct agents
 * must pass every scenario (no false failures); broken agents must fail, each naming its
 * mistake.
 */
import { describe, expect, it } from 'vitest';
import {
  type AgentFunction,
  type CheckAgentOptions,
  type Framework,
  runScenarios,
  SCENARIOS,
} from '../src/index.js';
import * as changesMoreThanApproved from './corpus/broken/changes-more-than-approved.js';
import * as footnoteLink from './corpus/broken/footnote-link.js';
import * as keyEncoded from './corpus/broken/key-encoded.js';
import * as noServiceTools from './corpus/broken/no-service-tools.js';
import * as repeatedSearch from './corpus/broken/repeated-search.js';
import * as skippedApproval from './corpus/broken/skipped-approval.js';
import * as toolAfterDenial from './corpus/broken/tool-after-denial.js';
import * as generateText from './corpus/good/generate-text.js';
import * as langChainCreateAgent from './corpus/good/langchain-create-agent.js';
import * as openAiAgentsRunState from './corpus/good/openai-agents-run-state.js';
import * as streamText from './corpus/good/stream-text.js';
import * as toolLoopAgent from './corpus/good/tool-loop-agent.js';
import * as uiStream from './corpus/good/ui-stream.js';
import * as withHelpLink from './corpus/good/with-help-link.js';

/** An agent module as the CLI loads it: the agent, and its framework. */
interface AgentModule {
  default: AgentFunction<never, never>;
  framework: Framework;
}

const module = (loaded: unknown) => loaded as AgentModule;

const GOOD: [string, AgentModule, CheckAgentOptions?][] = [
  ['generateText', module(generateText)],
  ['streamText with a system prompt', module(streamText)],
  ['ToolLoopAgent', module(toolLoopAgent)],
  ['a UI message stream returned in ui', module(uiStream)],
  ['LangChain createAgent with human-in-the-loop', module(langChainCreateAgent)],
  ['OpenAI Agents with needsApproval and a RunState resumed', module(openAiAgentsRunState)],
  [
    'its own help link, allowed',
    module(withHelpLink),
    { allowedLinks: ['https://help.shop.example'] },
  ],
];

describe.each(GOOD)('a correct agent: %s', (_, agent, options) => {
  it('passes every scenario', { timeout: 180_000 }, async () => {
    const results = await runScenarios(agent.default, { ...options, framework: agent.framework });
    expect(results.map((result) => [result.id, result.problems])).toEqual(
      SCENARIOS.map((scenario) => [scenario.id, []]),
    );
  });
});

interface Broken {
  agent: AgentModule;
  /** The scenario that shows the mistake, and what its report must say. */
  scenario: string;
  says: RegExp;
  options?: CheckAgentOptions;
}

/**
 * The three agents of test/fixtures/mistakes/ (no approval, raw tool output pasted, told to
 * retry failures) are run on every scenario by mistakes.test.ts, which checks each scenario
 * they fail with what its report says: they are not run here again.
 */
const BROKEN: Record<string, Broken> = {
  'approves changes itself (the shopper is never asked)': {
    agent: module(skippedApproval),
    scenario: 'update-outcome-unknown',
    says: /update_collection reached the service 1 time but the shopper approved 0: a change ran without approval/,
  },
  'sends a change other than the one approved (a rename)': {
    agent: module(changesMoreThanApproved),
    scenario: 'update-outcome-unknown',
    says: /collection col_summer was changed beyond what the shopper approved: name sent "Summer favourites" but approved \(absent\)/,
  },
  'puts the key in the page as HTML character references': {
    agent: module(keyEncoded),
    scenario: 'shopping-run',
    says: /the secret ck_t… \(30 characters\) is in what the browser received/,
  },
  'runs every search twice': {
    agent: module(repeatedSearch),
    scenario: 'shopping-run',
    says: /search_catalog ran 2 times with the same input \{.*"query":"running shoes under \$120".*\}: reuse the result of the first search/,
  },
  'runs a tool after the shopper denied a change': {
    agent: module(toolAfterDenial),
    scenario: 'change-denied',
    says: /search_catalog ran after the shopper denied update_collection: after a denial, answer without running tools/,
  },
  'links a page in a footnote GFM renderers read differently (links red team L1)': {
    agent: module(footnoteLink),
    scenario: 'shopping-run',
    says: /GFM renderers \(remark-gfm: react-markdown, Streamdown\) read this answer differently from the check \(markdown-it, as renderAnswerHtml renders it\): "https:\/\/compare\.example\/prices" is not a buy link the catalog gave/,
  },
  'builds its tools without the tools the service lists (no get_product)': {
    agent: module(noServiceTools),
    scenario: 'product-details',
    says: /get_product never reached the service: build the tools with the tools the service lists/,
  },
  'builds its tools without the tools the service lists (no lookup_catalog)': {
    agent: module(noServiceTools),
    scenario: 'lookup-by-url',
    says: /lookup_catalog never reached the service/,
  },
  'gives its own link without allowedLinks': {
    agent: module(withHelpLink),
    scenario: 'shopping-run',
    says: /"https:\/\/help\.shop\.example\/buying" is not a buy link the catalog gave/,
  },
};

describe.each(Object.entries(BROKEN))('a broken agent that %s', (_, broken) => {
  it(`fails ${broken.scenario}, naming the mistake`, { timeout: 120_000 }, async () => {
    const [result] = await runScenarios(broken.agent.default, {
      ...broken.options,
      framework: broken.agent.framework,
      scenarios: SCENARIOS.filter((scenario) => scenario.id === broken.scenario),
    });
    expect(result?.passed).toBe(false);
    expect(result?.problems.join('\n')).toMatch(broken.says);
  });
});
