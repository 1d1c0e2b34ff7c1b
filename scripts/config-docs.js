#!/usr/bin/env node
// Writes docs/configuration.md from the env classes every app validates at boot
// (apps/<app>/src/<app>.env.ts and the blocks of libs/config), so the reference cannot
// drift from the code: test/deploy-checks/config-docs.spec.ts renders it again and fails
// when the file differs. `node scripts/config-docs.js` (npm run docs:config) rewrites it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const OUTPUT = 'docs/configuration.md';

/** Variables read outside the env classes (one module each reads them), kept here by hand. */
const OUTSIDE_ENV_CLASSES = [
  {
    name: 'LOG_FORMAT',
    default: 'readable at a terminal, else `json`',
    values: '`json` or `pretty`',
    meaning: '`json`: one JSON object a line, for collectors; `pretty`: one readable line, for a person (libs/logging).',
  },
];

/** The files that may declare env classes or their blocks: every library source declaring a `with…` block or an env class, and the apps' env files. */
function sourceFiles(root) {
  const files = [];
  for (const lib of fs.readdirSync(path.join(root, 'libs')).sort()) {
    const dir = path.join(root, 'libs', lib, 'src');
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir, { recursive: true }).sort()) {
      if (!name.endsWith('.ts') || name.endsWith('.spec.ts') || name.endsWith('.d.ts')) continue;
      const file = path.join(dir, name);
      if (/export (function with[A-Z]|class \w+Env\b)/.test(fs.readFileSync(file, 'utf8'))) files.push(file);
    }
  }
  for (const app of fs.readdirSync(path.join(root, 'apps')).sort()) {
    const file = path.join(root, 'apps', app, 'src', `${app}.env.ts`);
    if (fs.existsSync(file)) files.push(file);
  }
  return files;
}

function parse(file) {
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

/** A comment's pointers for code readers (`See kafkaConnectionFromEnv.`, `(see TraceLimits)`, `(issue 59)`), which mean nothing on this page. */
const forCodeReaders = [/ See [A-Za-z]+(?: \(@cinetrace\/[a-z-]+\))?\./g, / \(see [A-Z][A-Za-z]+\)/g, / \(issue \d+\)/g, / \((?:[a-z]+[A-Z][A-Za-z]*)\)/g];
const forReaders = (text) => forCodeReaders.reduce((t, pattern) => t.replace(pattern, ''), text);

/** The JSDoc text of a node as one paragraph, and its `@default` tag if any. */
function jsDocOf(node) {
  const docs = (node.jsDoc ?? []).filter((d) => d.kind === ts.SyntaxKind.JSDoc);
  const last = docs[docs.length - 1];
  if (!last) return { text: '', defaultTag: undefined };
  const text = forReaders((ts.getTextOfJSDocComment(last.comment) ?? '').replace(/\s*\n\s*/g, ' ').trim());
  const tag = (last.tags ?? []).find((t) => t.tagName.text === 'default');
  const defaultTag = tag ? (ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/\s*\n\s*/g, ' ').trim() : undefined;
  return { text, defaultTag };
}

function topLevelConsts(sourceFile) {
  const consts = new Map();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) consts.set(declaration.name.text, declaration.initializer);
    }
  }
  return consts;
}

/** The value of a literal expression (numbers with arithmetic, strings, booleans, arrays), else undefined. */
function evaluate(node, consts) {
  if (!node) return undefined;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return evaluate(node.expression, consts);
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ''));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const value = evaluate(node.operand, consts);
    return typeof value === 'number' ? -value : undefined;
  }
  if (ts.isIdentifier(node) && consts.has(node.text)) return evaluate(consts.get(node.text), consts);
  if (ts.isIdentifier(node)) return evaluateImported(node, node.text, undefined);
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
    const object = consts.get(node.expression.text) ?? importedConst(node, node.expression.text)?.node;
    const property = object && ts.isObjectLiteralExpression(object) && object.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === node.name.text);
    return property ? evaluate(property.initializer, property.getSourceFile() === node.getSourceFile() ? consts : topLevelConsts(property.getSourceFile())) : undefined;
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => evaluate(e, consts));
    return items.every((i) => i !== undefined) ? items : undefined;
  }
  if (ts.isBinaryExpression(node)) {
    const left = evaluate(node.left, consts);
    const right = evaluate(node.right, consts);
    if (typeof left !== 'number' || typeof right !== 'number') return undefined;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken:
        return left * right;
      case ts.SyntaxKind.PlusToken:
        return left + right;
      case ts.SyntaxKind.MinusToken:
        return left - right;
      case ts.SyntaxKind.SlashToken:
        return left / right;
    }
  }
  return undefined;
}

/** A constant another package of the monorepo exports (`import { X } from '@cinetrace/<lib>'`): its initializer, and its file's constants. */
function importedConst(node, name) {
  const sourceFile = node.getSourceFile();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const match = /^@cinetrace\/(.+)$/.exec(statement.moduleSpecifier.text);
    const bindings = statement.importClause?.namedBindings;
    if (!match || !bindings || !ts.isNamedImports(bindings) || !bindings.elements.some((e) => e.name.text === name)) continue;
    for (const file of packageFiles(match[1])) {
      const consts = topLevelConsts(parse(file));
      if (consts.has(name)) return { node: consts.get(name), consts };
    }
  }
  return undefined;
}

function evaluateImported(node, name) {
  const found = importedConst(node, name);
  return found ? evaluate(found.node, found.consts) : undefined;
}

function packageFiles(name) {
  const dir = ['libs', 'apps'].map((d) => path.join(ROOT, d, name, 'src')).find((d) => fs.existsSync(d));
  if (!dir) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

function formatNumber(name, value) {
  const MiB = 1024 * 1024;
  const GiB = 1024 * MiB;
  if (/BYTES$/.test(name) && value >= MiB && value % MiB === 0) {
    return `\`${value}\` (${value % GiB === 0 ? `${value / GiB} GiB` : `${value / MiB} MiB`})`;
  }
  return `\`${value}\``;
}

function decoratorsOf(member) {
  return (ts.canHaveDecorators(member) ? (ts.getDecorators(member) ?? []) : [])
    .map((d) => d.expression)
    .filter(ts.isCallExpression)
    .map((call) => ({ name: call.expression.getText(), args: call.arguments }));
}

/** The `message` a validation decorator's options give (`{ message: '…' }` or `defaultMessage: () => '…'`). */
function messageOf(args, consts) {
  for (const given of args) {
    const arg = ts.isIdentifier(given) ? consts.get(given.text) : given;
    if (!arg || !ts.isObjectLiteralExpression(arg)) continue;
    for (const property of arg.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const key = property.name.getText();
      if (key === 'message' && ts.isStringLiteral(property.initializer)) return property.initializer.text;
      if (key === 'validator' && ts.isObjectLiteralExpression(property.initializer)) {
        for (const inner of property.initializer.properties) {
          if (ts.isPropertyAssignment(inner) && inner.name.getText() === 'defaultMessage' && ts.isArrowFunction(inner.initializer) && ts.isStringLiteral(inner.initializer.body)) {
            return inner.initializer.body.text;
          }
        }
      }
    }
  }
  return undefined;
}

/** What values a variable takes, read from its validation decorators. */
function valuesOf(decorators, consts) {
  const parts = [];
  const find = (name) => decorators.find((d) => d.name === name);
  const min = find('Min') && evaluate(find('Min').args[0], consts);
  const max = find('Max') && evaluate(find('Max').args[0], consts);
  if (find('IsBoolean')) parts.push('`true` or `false`');
  if (find('IsInt')) parts.push(min !== undefined && max !== undefined ? `integer, ${min}..${max}` : min !== undefined ? `integer ≥ ${min}` : 'integer');
  const isIn = find('IsIn');
  if (isIn) parts.push(`one of ${(evaluate(isIn.args[0], consts) ?? []).map((v) => `\`${v}\``).join(', ')}`);
  if (find('ToList')) parts.push('a comma-separated list');
  const arrayMax = find('ArrayMaxSize');
  if (arrayMax) parts.push(`at most ${evaluate(arrayMax.args[0], consts)} items`);
  for (const name of ['Matches', 'IsUrl', 'MinLength', 'ValidateBy', 'IsNotEmpty']) {
    const decorator = find(name);
    const message = decorator && messageOf(decorator.args, consts);
    if (message) parts.push(message.replace(/^must be /, '').replace(/^must /, ''));
  }
  const notLess = find('NotLessThan');
  if (notLess) parts.push(`not below ${evaluate(notLess.args[0], consts)}`);
  if (!parts.length && find('IsString')) parts.push('text');
  return parts.join('; ');
}

// What a declaration lacks for this page (a description, a default it can read), all reported at once.
const problems = [];

function variablesOf(classNode, sourceFile, consts, block) {
  const variables = [];
  for (const member of classNode.members) {
    if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name) || !/^[A-Z][A-Z0-9_]*$/.test(member.name.text)) continue;
    const name = member.name.text;
    const doc = jsDocOf(member);
    const file = path.relative(ROOT, sourceFile.fileName);
    if (!doc.text) problems.push(`${file}: ${name} has no description (a /** … */ line above it)`);
    let defaultText = doc.defaultTag;
    if (defaultText === undefined) {
      if (!member.initializer) defaultText = 'unset';
      else {
        const value = evaluate(member.initializer, consts);
        if (value === undefined) problems.push(`${file}: ${name}'s default is not a literal; say it with an @default tag`);
        if (typeof value === 'number') defaultText = formatNumber(name, value);
        else if (Array.isArray(value)) defaultText = value.length ? value.map((v) => `\`${v}\``).join(', ') : 'empty';
        else defaultText = `\`${value}\``;
      }
    }
    variables.push({ name, block, default: defaultText, values: valuesOf(decoratorsOf(member), consts), meaning: doc.text });
  }
  return variables;
}

/** Every mixin block (`withX(Base)`), env class and constant the sources declare. */
function readDeclarations(root) {
  const mixins = new Map();
  const classes = new Map();
  const appClasses = new Map();
  for (const file of sourceFiles(root)) {
    const sourceFile = parse(file);
    const consts = topLevelConsts(sourceFile);
    const app = path.relative(root, file).startsWith('apps/') ? path.relative(root, file).split(path.sep)[1] : undefined;
    for (const statement of sourceFile.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name && /^with[A-Z]/.test(statement.name.text)) {
        const inner = statement.body?.statements.find(ts.isClassDeclaration);
        if (!inner) continue;
        const name = statement.name.text;
        mixins.set(name, { doc: jsDocOf(statement).text, variables: variablesOf(inner, sourceFile, consts, name) });
      }
      if (ts.isClassDeclaration(statement) && statement.name) {
        const heritage = statement.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
        const name = statement.name.text;
        classes.set(name, { heritage, variables: variablesOf(statement, sourceFile, consts, name) });
        if (app && !appClasses.has(app)) appClasses.set(app, name);
      }
    }
  }
  return { mixins, classes, appClasses };
}

/** The variables of an env class: its bases' (mixins and classes, outermost last), then its own. */
function resolve(expression, declarations, seen = []) {
  if (!expression) return seen;
  if (ts.isIdentifier(expression)) {
    const declared = declarations.classes.get(expression.text);
    if (!declared) return seen;
    resolve(declared.heritage, declarations, seen);
    seen.push(...declared.variables);
    return seen;
  }
  if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
    resolve(expression.arguments[0], declarations, seen);
    const mixin = declarations.mixins.get(expression.expression.text);
    // A block this script cannot find would leave its variables out of the page without a word.
    if (!mixin) throw new Error(`env block ${expression.expression.text} is not declared as \`export function ${expression.expression.text}\` in a library`);
    seen.push(...mixin.variables);
  }
  return seen;
}

/** The env classes all-in-one validates, read from its main.ts (`validateEnv(SomeEnv)`). */
function allInOneClasses(root) {
  const file = path.join(root, 'apps/all-in-one/src/main.ts');
  const names = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.getText() === 'validateEnv' && node.arguments[0] && ts.isIdentifier(node.arguments[0])) {
      names.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return names;
}

/** What each app requires in the distributed mode: the `requires` list its main.ts gives runServiceProcess. */
function distributedRequirements(root) {
  const required = new Map();
  for (const app of fs.readdirSync(path.join(root, 'apps')).sort()) {
    const file = path.join(root, 'apps', app, 'src', 'main.ts');
    if (!fs.existsSync(file)) continue;
    const visit = (node) => {
      if (ts.isPropertyAssignment(node) && node.name.getText() === 'requires' && ts.isArrayLiteralExpression(node.initializer)) {
        required.set(app, evaluate(node.initializer, new Map()) ?? []);
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return required;
}

function secretVariables(root) {
  const sourceFile = parse(path.join(root, 'libs/config/src/secret-files.ts'));
  return evaluate(topLevelConsts(sourceFile).get('SECRET_VARIABLES'), new Map()) ?? [];
}

const cell = (text) => text.replace(/\|/g, '\\|');
const blockTitle = (mixin) => {
  const words = mixin
    .replace(/^with/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words[0].toUpperCase() + words.slice(1);
};
const anchor = (title) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

function table(variables) {
  const rows = variables.map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.values || '–')} | ${cell(v.meaning)} |`);
  return ['| Variable | Default | Values | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** docs/configuration.md as the sources declare it today. */
function renderConfigurationDoc(root = ROOT) {
  problems.length = 0;
  const declarations = readDeclarations(root);
  if (problems.length) throw new Error(`the env classes cannot be documented:\n${problems.join('\n')}`);
  const apps = [...declarations.appClasses.keys()];
  const perApp = new Map(apps.map((app) => [app, resolve(ts.factory.createIdentifier(declarations.appClasses.get(app)), declarations)]));
  perApp.set(
    'all-in-one',
    allInOneClasses(root).flatMap((name) => resolve(ts.factory.createIdentifier(name), declarations)),
  );
  const appNames = [...perApp.keys()].sort();

  // Who reads each variable, and where it is described (its block, or each app's own section).
  const readers = new Map();
  const sections = new Map();
  for (const app of appNames) {
    for (const variable of perApp.get(app)) {
      if (!readers.has(variable.name)) readers.set(variable.name, new Set());
      readers.get(variable.name).add(app);
      if (!sections.has(variable.name)) sections.set(variable.name, new Set());
      const section = declarations.mixins.has(variable.block) ? blockTitle(variable.block) : declarations.classes.has(variable.block) ? ownerOf(variable.block) : variable.block;
      sections.get(variable.name).add(section);
    }
  }
  function ownerOf(className) {
    return [...declarations.appClasses].find(([, name]) => name === className)?.[0] ?? className;
  }

  const out = [];
  out.push('# Configuration');
  out.push('');
  out.push('<!-- Generated by `npm run docs:config` (scripts/config-docs.js) from the env classes; do not edit by hand. -->');
  out.push('');
  out.push(
    'Every app reads its settings from environment variables, validates them at boot and stops naming each missing or wrong variable (never its value). ' +
      "Each app's variables are declared once, with their rules and defaults, in an env class: `apps/<app>/src/<app>.env.ts`, built from the blocks of `libs/config` (the bus, the store, logs, …). " +
      'This page is written from those classes; a unit test fails when it is stale.',
  );
  out.push('');
  out.push(
    'all-in-one validates the variables of every service it runs in its one process, and needs none of them: the Kafka, Redis and PostgreSQL ones matter only in the distributed mode. ' +
      '[deploy.md](deploy.md) shows them set for Docker Compose and Kubernetes.',
  );
  out.push('');
  out.push('## Required in the distributed mode');
  out.push('');
  out.push('Each app started on its own stops at boot, naming what is missing, unless these are set:');
  out.push('');
  out.push('| App | Required |');
  out.push('|---|---|');
  for (const [app, names] of distributedRequirements(root)) out.push(`| ${app} | ${names.map((n) => `\`${n}\``).join(', ')} |`);
  out.push('');
  out.push('## Secrets from files');
  out.push('');
  out.push(
    `${secretVariables(root)
      .map((n) => `\`${n}\``)
      .join(
        ', ',
      )}, and in project-service every name \`OUTBOUND_ENV_SECRETS\` lists, may instead be given as \`<NAME>_FILE\`: the path of a file holding the value (trimmed), such as a mounted Kubernetes or Docker secret. ` +
      'Setting both `NAME` and `NAME_FILE`, or naming a file that cannot be read, stops the boot naming the variable and the path, never the value.',
  );
  out.push('');
  out.push('## Every variable');
  out.push('');
  out.push('| Variable | Read by | Described in |');
  out.push('|---|---|---|');
  for (const name of [...readers.keys()].sort()) {
    const where = [...sections.get(name)].map((s) => `[${s}](#${anchor(s)})`).join(', ');
    out.push(`| \`${name}\` | ${[...readers.get(name)].join(', ')} | ${where} |`);
  }
  for (const v of OUTSIDE_ENV_CLASSES) out.push(`| \`${v.name}\` | all | [Read outside the env classes](#read-outside-the-env-classes) |`);
  out.push('');
  out.push('## Blocks');
  out.push('');
  out.push("Groups of variables several apps share. An app's own section (below) may declare a variable of the same name with its own meaning.");
  for (const [mixin, declared] of [...declarations.mixins].sort(([a], [b]) => blockTitle(a).localeCompare(blockTitle(b)))) {
    const users = appNames.filter((app) => perApp.get(app).some((v) => v.block === mixin));
    if (!users.length || !declared.variables.length) continue;
    out.push('');
    out.push(`### ${blockTitle(mixin)}`);
    out.push('');
    if (declared.doc) {
      out.push(declared.doc);
      out.push('');
    }
    out.push(`Read by: ${users.join(', ')}.`);
    out.push('');
    out.push(table(declared.variables));
  }
  out.push('');
  out.push("## Each app's own");
  for (const app of apps) {
    const own = declarations.classes.get(declarations.appClasses.get(app)).variables;
    if (!own.length) continue;
    out.push('');
    out.push(`### ${app}`);
    out.push('');
    out.push(table(own));
  }
  out.push('');
  out.push('## Read outside the env classes');
  out.push('');
  out.push(table(OUTSIDE_ENV_CLASSES));
  out.push('');
  return out.join('\n');
}

module.exports = { renderConfigurationDoc, OUTPUT };

if (require.main === module) {
  fs.writeFileSync(path.join(ROOT, OUTPUT), renderConfigurationDoc());
  console.log(`wrote ${OUTPUT}`);
}
