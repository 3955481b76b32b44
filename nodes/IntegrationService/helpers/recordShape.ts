import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { entryListForm } from './fields';
import { conditionParts } from './fields/conditionGroups';
import { entryParts } from './fields/objectList';

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

/** `value (text), isPrimary (true or false)`: the parts of one entry, each with its kind. */
function partsOf(parts: INodeProperties[]): string {
	return parts.map(described).join(', ');
}

/** The kind of value one field takes, a list's entries as their reader reads them (fields/index.ts). */
function kindOf(property: INodeProperties): string {
	if (property.type === 'number' || property.validateType === 'number') return 'number';
	if (property.type === 'boolean') return 'true or false';
	if (
		property.type === 'options' &&
		(property.options ?? []).some((o) => 'value' in o && typeof o.value === 'boolean')
	)
		return 'true or false';
	if (property.type === 'string' && property.typeOptions?.multipleValues) return 'list of text';
	const listForm = entryListForm(property);
	if (listForm) return kindOf(listForm);
	if (property.type === 'json')
		return String(property.default).trim().startsWith('[') ? 'list of objects' : 'object';
	if (property.type === 'fixedCollection') {
		const groups = conditionParts(property);
		return groups
			? `list of groups, each a list of objects with ${partsOf(groups)}`
			: `list of objects with ${partsOf(entryParts(property))}`;
	}
	if (property.type === 'collection') return `object of true/false: ${keysOf(property).join(', ')}`;
	return 'text';
}

const described = (field: INodeProperties) =>
	`${field.name} (${kindOf(field)}${field.required ? ', required' : ''})`;

/** `firstName (text, required); averagePrice (number); …` for the given wire fields. */
export function recordShape(fields: INodeProperties[]): string {
	return fields.map(described).join('; ');
}
