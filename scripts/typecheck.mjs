#!/usr/bin/env node
// `pnpm typecheck`: every tsconfig.json of the workspace (the root's, each package's, each example's)
// in as few programs as their settings allow. The projects that only add `paths` to
// tsconfig.base.json are checked together, as tsconfig.workspace.json, ONE program: the core's sources,
// @types/node and the frameworks' types are read and checked once instead of once per project (31
// programs took about 160 s of CPU on this 2-core machine, the one program about 20 s). A project with
// settings of its own (Bun's or Deno's global types, decorators) keeps its own program, run by `tsc -p`
// beside it. The run fails when a shared project has a file or a `paths` entry that
// tsconfig.workspace.json does not hold, so a new package or example cannot go unchecked.
import { spawn } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import ts from 'typescript';
import { root, workspaceProjects } from './workspace-projects.mjs';

const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function failOn(diagnostics) {
  if (diagnostics.length === 0) return;
  const host = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exitCode = 1;
}

function parse(file) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    file,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => failOn([d]) },
  );
  failOn(parsed.errors);
  return parsed;
}

/** What a shared project has that the workspace program lacks: files, or `paths` it maps elsewhere. */
function missingFrom(workspace, { file, parsed }) {
  const files = new Set(workspace.fileNames);
  const gaps = parsed.fileNames
    .filter((name) => !files.has(name))
    .map((name) => relative(root, name));
  const target = (options, key) =>
    String(options.paths?.[key]?.map((path) => resolve(options.pathsBasePath, path)));
  for (const key of Object.keys(parsed.options.paths ?? {})) {
    if (target(parsed.options, key) !== target(workspace.options, key))
      gaps.push(`paths["${key}"]`);
  }
  return gaps.map((gap) => `${relative(root, file)}: ${gap} is not in tsconfig.workspace.json`);
}

function runOwn(file) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [TSC, '-p', file, '--pretty'], { stdio: 'inherit' });
    child.once('exit', (code) => {
      if (code !== 0) process.exitCode = 1;
      done();
    });
  });
}

const { shared, own } = workspaceProjects();

// The projects with settings of their own run beside the shared program, one at a time: with the
// shared program, that keeps both cores of a small machine busy and no more.
const separate = own.reduce(
  (previous, file) => previous.then(() => runOwn(file)),
  Promise.resolve(),
);

const workspace = parse(join(root, 'tsconfig.workspace.json'));
const gaps = shared.flatMap((file) => missingFrom(workspace, { file, parsed: parse(file) }));
if (gaps.length > 0) {
  console.error(gaps.join('\n'));
  process.exitCode = 1;
}
const program = ts.createProgram({
  rootNames: workspace.fileNames,
  options: workspace.options,
  projectReferences: workspace.projectReferences,
});
failOn(ts.getPreEmitDiagnostics(program));
await separate;
const names = (files) => files.map((file) => relative(root, dirname(file)) || '.').join(', ');
const verdict = process.exitCode === 1 ? 'type errors above' : 'no type errors';
console.log(
  `${verdict}: ${shared.length} projects as one program (${workspace.fileNames.length} files),`,
);
console.log(`and ${own.length} with settings of their own (${names(own)})`);
