#!/usr/bin/env node
/**
 * docs/operations.md's parameter tables, generated from the node itself (dist/, so `npm run build`
 * first): the node's description is walked per resource and operation, and each parameter's display
 * name, internal name, type, default, required flag, when it shows, and description go into the block
 * between that operation's marker comments. The prose around the blocks is hand-written and left alone.
 *
 *   node .ci/docs-operations.mjs           rewrite the generated blocks
 *   node .ci/docs-operations.mjs --check   exit 1 when a block is stale or missing (CI)
 *   --doc FILE                             another copy of the document (the check's own test)
 *
 * Markers: `<!-- generated:begin operations -->` (every operation, with its source),
 * `<!-- generated:begin common -->` (parameters of every operation) and
 * `<!-- generated:begin parameters <resource>.<operation> -->`, each closed by `<!-- generated:end -->`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

import prettier from 'prettier';

const root = resolve(new URL('..', import.meta.url).pathname);
const docAt = process.argv.indexOf('--doc');
const docPath = docAt > 0 ? resolve(process.argv[docAt + 1]) : join(root, 'docs', 'operations.md');
const check = process.argv.includes('--check');
const require = createRequire(import.meta.url);

function loadNode() {
	const file = join(root, 'dist', 'nodes', 'IntegrationService', 'IntegrationService.node.js');
	try {
		return new (require(file).IntegrationService)().description;
	} catch (error) {
		console.error(`docs:operations: cannot load ${relative(root, file)}; run npm run build first`);
		console.error(String(error));
		process.exit(2);
	}
}

/** The operations the interface specification shows; Person › Update is from the service's public docs. */
const SPECIFIED = new Set([
	'person.create',
	'person.getAll',
	'authorizationLink.create',
	'credential.create',
	'credential.update',
	'borrower.update',
	'document.create',
	'webhook.update',
	'customApiCall.send',
]);

/** Each resource's host, from the built catalogue: where an endpoint beyond the specification is published. */
function hostsOf() {
	const file = join(root, 'dist', 'nodes', 'shared', 'catalogue', 'index.js');
	return new Map(require(file).RESOURCES.map((resource) => [resource.value, resource.host]));
}

/** Where an operation's endpoint comes from (decisions.md, "Beyond the specification"). */
function sourceOf(hosts, resource, operation) {
	if (SPECIFIED.has(`${resource}.${operation}`)) return 'specification';
	if (resource === 'person' && operation === 'update') return "service's public documentation";
	return hosts.get(resource) === 'crm'
		? 'published endpoint (crm-endpoints.md)'
		: "service's public pages (decisions.md)";
}

/** A table cell: one line, pipes escaped. */
function cell(value) {
	return String(value ?? '')
		.replace(/\s*\n\s*/g, ' ')
		.replace(/\|/g, '\\|')
		.trim();
}

function code(value) {
	return value === '' ? '' : `\`${String(value).replace(/`/g, "'")}\``;
}

/** The default as JSON; a long one (Record (JSON)'s `$fromAI` listing every field) cut, its description telling the rest. */
function defaultOf(property) {
	if (property.default === undefined || property.default === '') return '';
	const text = JSON.stringify(property.default);
	return code(text.length > 60 ? `${text.slice(0, 40)}…` : text);
}

/** The show/hide conditions other than resource and operation: `mappingMode: defineBelow`. */
function shownWhen(property) {
	const parts = [];
	for (const [kind, conditions] of Object.entries(property.displayOptions ?? {})) {
		for (const [name, values] of Object.entries(conditions ?? {})) {
			if (name === 'resource' || name === 'operation') continue;
			const list = values.map((value) => JSON.stringify(value)).join(' or ');
			parts.push(`${kind === 'hide' ? 'not ' : ''}${code(`${name}: ${list}`)}`);
		}
	}
	return parts.join(', ');
}

function optionsList(options) {
	return options
		.map((option) => `${option.name} (${code(JSON.stringify(option.value))})`)
		.join(', ');
}

/** A collection whose every option is a true/false flag: its flags in one cell, not a row each. */
function isFlagSet(property) {
	const options = property.options ?? [];
	return (
		property.type === 'collection' &&
		options.length > 0 &&
		options.every((option) => option.type === 'boolean')
	);
}

function describe(property) {
	const parts = [cell(property.description)];
	if (property.type === 'options' || property.type === 'multiOptions') {
		parts.push(`Options: ${optionsList(property.options ?? [])}.`);
	}
	if (isFlagSet(property)) {
		parts.push(
			`Flags: ${property.options.map((flag) => `${flag.displayName} (${code(flag.name)})`).join(', ')}.`,
		);
	}
	return parts.filter(Boolean).join(' ');
}

/** One row per parameter; a collection's fields and a fixed collection's values as rows under it. */
function rows(property, path = [], names = []) {
	const label = [...path, property.displayName].join(' › ');
	const name = [...names, property.name].join('.');
	const own = [
		`| ${cell(label)} | ${code(name)} | ${property.type}${property.validateType ? ` (${property.validateType})` : ''} | ${defaultOf(property)} | ${property.required ? 'yes' : ''} | ${shownWhen(property)} | ${describe(property)} |`,
	];
	if (property.type === 'collection' && !isFlagSet(property)) {
		for (const option of property.options ?? []) {
			own.push(...rows(option, [...path, property.displayName], [...names, property.name]));
		}
	}
	if (property.type === 'fixedCollection') {
		for (const group of property.options ?? []) {
			for (const value of group.values ?? []) {
				own.push(
					...rows(
						value,
						[...path, property.displayName, group.displayName],
						[...names, property.name, group.name],
					),
				);
			}
		}
	}
	return own;
}

const HEADER = [
	'| Parameter | Name | Type | Default | Required | Shown when | Description |',
	'| --- | --- | --- | --- | --- | --- | --- |',
];

function table(properties) {
	if (properties.length === 0) return '_No parameters of its own._';
	return [...HEADER, ...properties.flatMap((property) => rows(property))].join('\n');
}

function appliesTo(property, resource, operation) {
	const show = property.displayOptions?.show ?? {};
	const hide = property.displayOptions?.hide ?? {};
	if (show.resource && !show.resource.includes(resource)) return false;
	if (show.operation && !show.operation.includes(operation)) return false;
	if (hide.resource?.includes(resource) || hide.operation?.includes(operation)) return false;
	return true;
}

/** Every resource and operation, and the blocks of generated text by marker name. */
function blocksOf(description) {
	const properties = description.properties;
	const resources = properties.find((property) => property.name === 'resource').options;
	// The selectors are the table's rows, and a notice is a hint in the editor, not a parameter.
	const isSelector = (property) =>
		property.name === 'resource' || property.name === 'operation' || property.type === 'notice';
	const common = properties.filter((property) => !isSelector(property) && !property.displayOptions);
	const blocks = new Map();
	const hosts = hostsOf();
	const index = [
		'| Resource | Operation | `resource` / `operation` | Action | Source |',
		'| --- | --- | --- | --- | --- |',
	];
	for (const resource of resources) {
		const selector = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of selector?.options ?? []) {
			const source = sourceOf(hosts, resource.value, operation.value);
			index.push(
				`| ${resource.name} | ${operation.name} | ${code(`${resource.value}`)} / ${code(operation.value)} | ${cell(operation.action)} | ${cell(source)} |`,
			);
			const own = properties.filter(
				(property) =>
					!isSelector(property) &&
					property.displayOptions &&
					appliesTo(property, resource.value, operation.value),
			);
			blocks.set(`parameters ${resource.value}.${operation.value}`, {
				title: `${resource.name} › ${operation.name}`,
				text: table(own),
			});
		}
	}
	blocks.set('operations', { title: 'Every operation', text: index.join('\n') });
	blocks.set('common', { title: 'Parameters of every operation', text: table(common) });
	return blocks;
}

const NEW_SECTION = '## Operations without a section yet';
const BLOCK = /(<!-- generated:begin ([^>]*?) -->\n)([\s\S]*?)(<!-- generated:end -->)/g;

function fill(text, blocks) {
	const seen = new Set();
	const unknown = [];
	const filled = text.replace(BLOCK, (whole, begin, name, _old, end) => {
		if (!blocks.has(name)) {
			unknown.push(name);
			return whole;
		}
		seen.add(name);
		return `${begin}\n${blocks.get(name).text}\n\n${end}`;
	});
	const missing = [...blocks.keys()].filter((name) => !seen.has(name));
	// A new operation's block goes to the end, under its own heading, until someone moves it into its
	// section: the reference is never without it.
	const added = missing.map(
		(name) =>
			`### ${blocks.get(name).title}\n\n<!-- generated:begin ${name} -->\n\n${blocks.get(name).text}\n\n<!-- generated:end -->\n`,
	);
	const tail = added.length
		? `${filled.includes(`\n${NEW_SECTION}\n`) ? '' : `\n${NEW_SECTION}\n`}\n${added.join('\n')}`
		: '';
	return { filled: filled + tail, missing, unknown };
}

const description = loadNode();
const before = readFileSync(docPath, 'utf8');
const { filled, missing, unknown } = fill(before, blocksOf(description));
// The repository's Prettier settings, also for a copy elsewhere (--doc).
const ownPath = join(root, 'docs', 'operations.md');
const options = { ...(await prettier.resolveConfig(ownPath)), filepath: ownPath };
const after = await prettier.format(filled, options);
const file = relative(root, docPath);
for (const name of unknown) {
	console.log(`${file}: a block names "${name}", which the node does not have`);
}
for (const name of missing) {
	console.log(
		check
			? `${file}: no block for "${name}"; npm run docs:operations adds one at the end ("${NEW_SECTION}")`
			: `${file}: added a block for "${name}" at the end; move it into its section`,
	);
}
if (check) {
	const stale = after !== before;
	if (stale) console.log(`${file}: stale; run npm run docs:operations and commit the result`);
	if (stale || unknown.length) process.exit(1);
	console.log(`${file}: the parameter tables match the node's description`);
} else {
	if (after !== before) writeFileSync(docPath, after);
	console.log(`${file}: ${after === before ? 'already up to date' : 'rewritten'}`);
	if (unknown.length) process.exit(1);
}
