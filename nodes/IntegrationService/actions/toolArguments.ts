import type {
	INode,
	INodeProperties,
	INodePropertyCollection,
	NodeParameterValueType,
} from 'n8n-workflow';

/** A model knows the arguments it sent, not the form's labels: the `$fromAI` keys behind an error's label. */

const FROM_AI_KEY = /\$from(?:AI|Ai|ai)\(\s*(['"`])([^'"`]{1,64})\1/g;
const ENTRY = /^entry (\d+)$/;

type Level = { properties: INodeProperties[]; value: unknown };

function keysIn(value: unknown, found: Set<string>): Set<string> {
	if (typeof value === 'string')
		for (const match of value.matchAll(FROM_AI_KEY)) found.add(match[2]);
	else if (Array.isArray(value)) for (const entry of value) keysIn(entry, found);
	else if (value && typeof value === 'object')
		for (const entry of Object.values(value)) keysIn(entry, found);
	return found;
}

/** One label part down: a property of this level by its display name, or an entry by its number. */
function step({ properties, value }: Level, part: string): Level | undefined {
	const entry = ENTRY.exec(part);
	if (entry && Array.isArray(value)) {
		const at = value[Number(entry[1]) - 1];
		return at === undefined ? undefined : { properties, value: at };
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const given = value as Record<string, NodeParameterValueType>;
	// Labels drop a display name's unit ("Timeout (Seconds)" → "Timeout").
	const property = properties.find(
		(p) =>
			(p.displayName === part || p.displayName.replace(/ \(.*\)$/, '') === part) && p.name in given,
	);
	if (!property) return undefined;
	const inner = given[property.name];
	if (property.type === 'fixedCollection') {
		const groups = (property.options ?? []) as INodePropertyCollection[];
		const group = groups.find((g) => inner && typeof inner === 'object' && g.name in inner);
		if (!group) return undefined;
		return { properties: group.values, value: (inner as Record<string, unknown>)[group.name] };
	}
	return { properties: (property.options ?? []) as INodeProperties[], value: inner };
}

export function argumentsBehind(
	node: INode,
	properties: INodeProperties[],
	message: string,
): string[] {
	const label = message.slice(0, Math.max(0, message.indexOf(': ')));
	if (label === '') return [];
	let level: Level | undefined = { properties, value: node.parameters };
	for (const part of label.split(' › ')) {
		const next: Level | undefined = step(level, part);
		// An entry past the list's end names the list; a field not found names nothing (not its siblings).
		if (!next && ENTRY.test(part)) break;
		if (!next) return [];
		level = next;
	}
	if (level.value === node.parameters) return [];
	return [...keysIn(level.value, new Set<string>())];
}
