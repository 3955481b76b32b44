/**
 * Record (JSON)'s `$fromAI` description is the only text a model reads about a record (issue 32): a
 * record built from the shape it states is accepted, for every Create and Update of the catalogue.
 * The record holds every required field and every list of objects (the kinds whose shape is easy to
 * get wrong: a smart list's conditions are a list of groups, each a list of conditions), each built
 * from its description alone. Through n8n's engine against the sandbox: one request each (Create or
 * Update's after its read of the people list).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { loadPackage, NODE_TYPE, runNode } from '../harness/engine';
import { sandboxCredentials, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started), { people: 2 });

interface Described {
	name: string;
	kind: string;
	required: boolean;
}

/** `a (x), b (list of objects with c (y), d (z, required))` at one level: split at top-level separators. */
function splitTop(text: string, separator: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '(') depth++;
		else if (text[i] === ')') depth--;
		else if (depth === 0 && text.startsWith(separator, i)) {
			out.push(text.slice(start, i));
			start = i + separator.length;
		}
	}
	out.push(text.slice(start));
	return out.map((part) => part.trim()).filter(Boolean);
}

function described(text: string): Described {
	const open = text.indexOf(' (');
	const inner = text.slice(open + 2, -1);
	const required = inner.endsWith(', required');
	return {
		name: text.slice(0, open),
		kind: required ? inner.slice(0, -', required'.length) : inner,
		required,
	};
}

/** A value of that kind, made from its words alone. */
function valueOf(field: Described): unknown {
	const { kind, name } = field;
	const groups = 'list of groups, each a list of objects with ';
	const objects = 'list of objects with ';
	if (kind.startsWith(groups)) return [[entryOf(kind.slice(groups.length))]];
	if (kind.startsWith(objects)) return [entryOf(kind.slice(objects.length))];
	if (kind.startsWith('object of true/false: '))
		return { [kind.split(': ')[1].split(', ')[0]]: true };
	if (kind === 'number') return 1;
	if (kind === 'true or false') return true;
	if (kind === 'list of text') return ['x'];
	if (kind === 'object') return { note: 'x' };
	if (kind === 'list of objects') return [{ note: 'x' }];
	if (/url/i.test(name)) return 'https://files.example.test/a.pdf';
	if (/email|^value$/i.test(name)) return 'a@example.test';
	return 'x';
}

function entryOf(parts: string): IDataObject {
	return Object.fromEntries(
		splitTop(parts, ', ')
			.map(described)
			.map((part) => [part.name, valueOf(part)]),
	) as IDataObject;
}

async function recordOperations() {
	const { nodeTypes } = await loadPackage();
	const properties = nodeTypes.getByNameAndVersion(NODE_TYPE).description.properties;
	return properties
		.filter((property: INodeProperties) => property.name === 'record')
		.flatMap((property) => {
			const [resource] = property.displayOptions!.show!.resource as string[];
			const [operation] = property.displayOptions!.show!.operation as string[];
			const shape = /Fields: (.*)`, 'json'\) \}\}$/.exec(String(property.default))![1];
			const id = properties.find(
				(other) =>
					operation === 'update' &&
					other.required &&
					other.name.endsWith('Id') &&
					(other.displayOptions?.show?.resource ?? []).includes(resource) &&
					(other.displayOptions?.show?.operation ?? []).includes(operation),
			);
			return [{ resource, operation, shape, id: id?.name }];
		});
}

test('a record built from the description of every Create and Update is accepted and sent', async () => {
	const operations = await recordOperations();
	expect(operations.length).toBeGreaterThan(30);
	const refused: string[] = [];
	for (const { resource, operation, shape, id } of operations) {
		sandbox.reset();
		const fields = splitTop(shape, '; ').map(described);
		const chosen = fields.filter((field) => field.required || field.kind.startsWith('list of '));
		// An Update with none of those: its first plain field (not a time, whose text has a format).
		const plain = fields.find(
			(field) =>
				['text', 'number', 'true or false'].includes(field.kind) &&
				!/date|At$|time/i.test(field.name),
		);
		const record = Object.fromEntries(
			(chosen.length ? chosen : [plain!]).map((field) => [field.name, valueOf(field)]),
		);
		const result = await runNode({
			parameters: {
				resource,
				operation,
				mappingMode: 'jsonRecord',
				record: JSON.stringify(record),
				...(id ? { [id]: 'x-1' } : {}),
				requestOptions: { maxAttempts: 1, maxRequestsPerSecond: 0 },
			},
			credentials: sandboxCredentials(sandbox),
			onError: 'continueRegularOutput',
		});
		// Create or Update reads the people list (GET) before it sends the record.
		const sent = sandbox.requests.filter((r) => !(operation === 'upsert' && r.method === 'GET'));
		if (sent.length !== 1)
			refused.push(`${resource}.${operation}: ${String(result.items[0]?.json.error)}`);
	}
	expect(refused).toEqual([]);
});
