/**
 * action.yml, generated from the registry (scripts/action-yml.mjs writes it at build time; a test
 * fails when the committed file differs). Route inputs carry no default: the runner would inject it
 * for every operation, and an operation must be able to refuse a route input it does not use.
 */
import { OPERATIONS, type Operations } from '@mediagw/core';
import { actionInputs, actionOutputs } from './contract.js';

/** A YAML double-quoted scalar (JSON's escapes are YAML's). */
const quote = (text: string) => JSON.stringify(text);

export function renderActionYml(operations: Operations = OPERATIONS): string {
  const lines = [
    '# Generated from the operation registry by scripts/action-yml.mjs (npm run build); do not edit.',
    'name: mediagw',
    `description: ${quote(`Media gateway operations as a workflow step: ${operations.map((op) => op.name).join(', ')}.`)}`,
    'author: mediagw',
    'branding:',
    '  icon: film',
    '  color: purple',
    '',
    'inputs:',
  ];
  for (const input of actionInputs(operations)) {
    lines.push(`  ${input.name}:`, `    description: ${quote(input.description)}`);
    lines.push(`    required: ${input.required === true}`);
    if (input.default !== undefined) lines.push(`    default: ${quote(input.default)}`);
  }
  lines.push('', 'outputs:');
  for (const output of actionOutputs(operations)) {
    lines.push(`  ${output.name}:`, `    description: ${quote(output.description)}`);
  }
  lines.push('', 'runs:', '  using: node24', '  main: dist/index.js', '');
  return lines.join('\n');
}
