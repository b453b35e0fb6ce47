import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { approverForCli, terminalApprover } from '../src/cli/approvals.js';
import { parseCli } from '../src/cli/arguments.js';
import { DEFAULT_SHOPPING_REQUEST } from '../src/shopper/request.js';

describe('parseCli', () => {
  it('uses the demo request when none is given', () => {
    expect(parseCli([])).toEqual({ request: DEFAULT_SHOPPING_REQUEST, yes: false });
  });

  it('joins the request words and reads --yes / -y', () => {
    expect(parseCli(['--yes', 'find', 'socks'])).toEqual({ request: 'find socks', yes: true });
    expect(parseCli(['-y'])).toMatchObject({ yes: true });
  });

  it('ignores a leading "--" that pnpm passes on', () => {
    expect(parseCli(['--', '--yes', 'find', 'socks'])).toEqual({
      request: 'find socks',
      yes: true,
    });
  });

  it('rejects an unknown flag, naming it', () => {
    expect(() => parseCli(['--yess'])).toThrow(/--yess/);
  });
});

const question = { toolName: 'update_collection', input: {} };

describe('approverForCli', () => {
  it('approves in advance with --yes', async () => {
    const approver = approverForCli({
      yes: true,
      stdin: new PassThrough(),
      stdout: new PassThrough(),
    });
    await expect(approver(question)).resolves.toMatchObject({
      approved: true,
      decidedBy: '--yes flag',
    });
  });

  it('denies when there is no terminal to ask', async () => {
    const approver = approverForCli({
      yes: false,
      stdin: new PassThrough(),
      stdout: new PassThrough(),
    });
    await expect(approver(question)).resolves.toMatchObject({
      approved: false,
      reason: expect.stringContaining('--yes'),
    });
  });
});

describe('terminalApprover', () => {
  async function answer(reply: string) {
    const input = new PassThrough();
    const output = new PassThrough();
    let asked = '';
    output.on('data', (chunk: Buffer) => {
      asked += chunk.toString();
    });
    const decision = terminalApprover(input, output)(question);
    input.write(`${reply}\n`);
    return { decision: await decision, asked };
  }

  it('asks about the tool and approves on "y"', async () => {
    const { decision, asked } = await answer('y');
    expect(asked).toContain('Allow update_collection? [y/N]');
    expect(decision).toMatchObject({ approved: true, decidedBy: 'you, at the terminal' });
  });

  it('denies on anything else', async () => {
    expect((await answer('')).decision.approved).toBe(false);
    expect((await answer('no')).decision.approved).toBe(false);
  });
});
