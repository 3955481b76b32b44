import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

/**
 * What a whole record looks like, in words a model reads: each wire field with the kind of value it
 * takes, from the same properties the mapper checks it against (so the words cannot drift from the
 * checks). It goes into the `$fromAI` description of Record (JSON), the only text of the node n8n
 * hands the model for that argument.
 */

function keysOf(property: INodeProperties): string[] {
	const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
	return options.flatMap((option) =>
		'values' in option ? option.values.map((value) => value.name) : [option.name],
	);
}

/** The kind of value one field takes. */
function kindOf(property: INodeProperties): string {
	if (property.type === 'number' || property.validateType === 'number') return 'number';
	if (property.type === 'boolean') return 'true or false';
	if (property.type === 'string' && property.typeOptions?.multipleValues) return 'list of text';
	if (property.type === 'json')
		return String(property.default).trim().startsWith('[') ? 'list of objects' : 'object';
	if (property.type === 'fixedCollection')
		return `list of objects with ${keysOf(property).join(', ')}`;
	if (property.type === 'collection') return `object of true/false: ${keysOf(property).join(', ')}`;
	return 'text';
}

/** `firstName (text, required); averagePrice (number); …` for the given wire fields. */
export function recordShape(fields: INodeProperties[]): string {
	return fields
		.map((field) => `${field.name} (${kindOf(field)}${field.required ? ', required' : ''})`)
		.join('; ');
}
