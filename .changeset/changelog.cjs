// The changelog generator of `pnpm changeset version` (config.json "changelog"). It differs from
// @changesets/cli/changelog in three ways a reader of CHANGELOG.md notices:
// - no commit hash before each entry: users read what changed, the repository keeps who and when;
// - a changeset whose text has its own headings (`#### Features`, …) is printed as it is, as a
//   block, so a release note can group its entries; any other changeset is one bullet;
// - no "Updated dependencies" lines on the first release (from 0.0.0): the nine packages move
//   together (the `fixed` group), and nothing was published before to be updated from. Later
//   versions say which Plantstore packages moved with them.
'use strict';

/** @param {string} summary */
const hasHeadings = (summary) => /^#{1,6} /m.test(summary);

/** @param {{ summary: string }} changeset */
async function getReleaseLine(changeset) {
  const summary = changeset.summary.trim();
  if (hasHeadings(summary)) return `\n${summary}\n`;
  const [first = '', ...rest] = summary.split('\n').map((line) => line.trimEnd());
  return [`- ${first}`, ...rest.map((line) => (line === '' ? '' : `  ${line}`))].join('\n');
}

/**
 * @param {unknown} _changesets
 * @param {ReadonlyArray<{ name: string, newVersion: string, oldVersion: string }>} dependencies
 */
async function getDependencyReleaseLine(_changesets, dependencies) {
  const moved = dependencies.filter((dependency) => dependency.oldVersion !== '0.0.0');
  if (moved.length === 0) return '';
  const names = moved.map((dependency) => `${dependency.name}@${dependency.newVersion}`);
  return `- Released together with ${names.join(', ')}.`;
}

module.exports = { getReleaseLine, getDependencyReleaseLine };
