import { SAMPLE_TRANSCRIPT } from '@catalogkit/example-demo-support/testing';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { ScriptedShopperChatModel, transcriptFromMessages } from '../demo/scripted-chat-model.js';

const conversation = [
  new SystemMessage('You are a shopping assistant.'),
  new HumanMessage('find shoes'),
  new AIMessage({
    content: '',
    tool_calls: [
      { id: 'c1', name: 'search_catalog', args: { query: 'shoes' }, type: 'tool_call' },
      { id: 'c2', name: 'search_websites', args: { query: 'Fell & Trail' }, type: 'tool_call' },
    ],
  }),
  new ToolMessage({ tool_call_id: 'c1', name: 'search_catalog', content: '2 products' }),
  new ToolMessage({ tool_call_id: 'c2', name: 'search_websites', content: 'Error: Rate limited' }),
  new AIMessage({
    content: '',
    tool_calls: [
      { id: 'c3', name: 'update_collection', args: { collection_id: 'col_a' }, type: 'tool_call' },
    ],
  }),
  new ToolMessage({
    tool_call_id: 'c3',
    name: 'update_collection',
    content: 'Not approved by you: no',
    status: 'error',
  }),
];

describe('transcriptFromMessages', () => {
  it('takes the request from the human and pairs each ToolMessage with its call', () => {
    expect(transcriptFromMessages(conversation)).toEqual(SAMPLE_TRANSCRIPT);
  });

  it('reads an error-status message that is not a rejection as an error', () => {
    const failed = new ToolMessage({
      tool_call_id: 'c1',
      name: 'search_catalog',
      content: 'Tool failed',
      status: 'error',
    });
    expect(transcriptFromMessages([new HumanMessage('x'), failed]).observations[0]?.outcome).toBe(
      'error',
    );
  });
});

describe('ScriptedShopperChatModel', () => {
  it('answers the first turn with a catalog search tool call read from the request', async () => {
    const model = new ScriptedShopperChatModel({});
    const reply = await model.invoke([
      new HumanMessage('Find trail running shoes under $120 in GB'),
    ]);
    expect(reply.tool_calls).toEqual([
      expect.objectContaining({
        id: 'call_1_1',
        name: 'search_catalog',
        args: expect.objectContaining({ query: 'trail running shoes under $120 in GB' }),
      }),
    ]);
  });

  it('answers in words once the tools are done', async () => {
    const model = new ScriptedShopperChatModel({});
    const reply = await model.invoke([
      new HumanMessage('Find trail running shoes'),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'search_catalog', args: {}, type: 'tool_call' }],
      }),
      new ToolMessage({
        tool_call_id: 'c1',
        name: 'search_catalog',
        content: 'Error: the catalog is down',
      }),
    ]);
    expect(reply.tool_calls ?? []).toEqual([]);
    expect(reply.text).toBe('I could not search the catalog: Error: the catalog is down');
  });
});
