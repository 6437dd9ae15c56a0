import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../lib/project-root.ts';

// The access rules have one home (decision 054): lint refuses a role comparison written anywhere
// else, on the server and in the screens alike.
const eslint = new ESLint({ cwd: PROJECT_ROOT });
const ruleIds = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath: `${PROJECT_ROOT}/${filePath}` }))[0]!.messages.map((m) => m.ruleId);

const COMPARISON = `type Role = 'instructor' | 'super_admin';\nexport const f = (user: { role: Role }) => user.role === 'instructor';\n`;

describe('role comparisons', () => {
  it.each(['server/modules/students/example.ts', 'web/features/students/example.tsx', 'common/example.ts'])('are refused in %s', async (file) => {
    expect(await ruleIds(file, COMPARISON)).toContain('no-restricted-syntax');
  });

  it.each(['server/modules/access/example.ts', 'common/roles.ts'])('are where the rules live, %s', async (file) => {
    expect(await ruleIds(file, COMPARISON)).not.toContain('no-restricted-syntax');
  });
});
