import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FieldSpec, ResourceSpec } from '../../shared/catalogue';
import { fieldsFor } from '../../shared/catalogue';
import type { BodyForm } from './body';
import { bodyFields, companionOf, GROUPS, MAPPING_MODE, namesOf, RECORD } from './body';
import { FIELDS, KINDS } from './kinds';
import { referenceProperty } from './kinds/locator';
import { partsInWords } from './kinds/objectList';

/** A field's property, and a list's companion that takes the whole list as one value. */
export function fieldProperties(fields: readonly FieldSpec[], locators = false): INodeProperties[] {
	return fields.flatMap((spec) => {
		const property = locators && spec.refersTo ? referenceProperty(spec) : FIELDS.property(spec);
		if (!KINDS[spec.type].list) return [property];
		const { name, label } = companionOf(spec);
		// Version 2 shows list fields up front, where n8n marks an empty JSON editor as an error: its
		// companion is a text box for the expression that gives the whole list.
		const companion: INodeProperties = {
			displayName: label,
			name,
			type: locators ? 'string' : 'json',
			default: '',
			...(locators ? { placeholder: `e.g. {{ $json.${spec.name} }}` } : {}),
			description: `${spec.label} given whole as one JSON list, e.g. by an expression that yields the input item's ${spec.name} list; checked as the entries of ${spec.label} are. Use either this or ${spec.label}; an empty value is not set.`,
		};
		return [property, companion];
	});
}

function formFields(form: BodyForm): INodeProperties[] {
	const properties = fieldProperties(form.fields, form.locators);
	if (!form.group) return properties;
	const update = form.group.kind === 'update';
	const group: INodeProperties = {
		displayName: GROUPS[form.group.kind].label,
		name: GROUPS[form.group.kind].name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: update
			? 'The fields to change; add at least one. Fields you do not add are not sent and stay as they are.'
			: form.group.description,
		options: fieldProperties(form.group.fields, form.locators),
	};
	return [...properties, group];
}

/** Record (JSON)'s default: a `$fromAI` naming every field's kind (all a model sees); no field name holds a backtick or `${`. */
function recordFromAI(fields: readonly FieldSpec[]): string {
	const description = `The record as one JSON object. Give only the fields you know; leave out the others. Fields: ${partsInWords(fields, FIELDS, '; ')}`;
	return `={{ $fromAI('${RECORD.name}', \`${description}\`, 'json') }}`;
}

function mappingModeProperties(fields: readonly FieldSpec[]): INodeProperties[] {
	return [
		{
			displayName: 'Mapping Mode',
			name: 'mappingMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Map Automatically',
					value: MAPPING_MODE.fromInput,
					description:
						"Send each input field whose name is one of the service's fields; other input fields are ignored",
				},
				{
					name: 'Map Each Field Below',
					value: MAPPING_MODE.fromForm,
					description: 'Set each field in the form below, by value or by expression',
				},
				{
					name: 'Map From a JSON Record',
					value: MAPPING_MODE.fromRecord,
					description:
						"Send one JSON object whose keys are the service's fields, such as an AI model gives as a tool; other keys are refused",
				},
			],
			default: 'defineBelow',
		},
		{
			displayName: `Input fields named as the service names them are sent, checked as the form would check them: ${namesOf(fields)}. Other input fields are ignored.`,
			name: 'mappingModeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromInput] } },
		},
		{
			displayName: RECORD.label,
			name: RECORD.name,
			type: 'json',
			required: true,
			default: recordFromAI(fields),
			description:
				'The record as one JSON object whose keys are the fields of Map Each Field Below, named as the service names them and each checked as the form checks it; a key that is none of them is refused, and empty values are not sent. The default lets an AI model fill it when the node is a tool; in a workflow, map an object from an earlier node instead.',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromRecord] } },
		},
	];
}

export function formProperties(form: BodyForm): INodeProperties[] {
	if (!form.mappingModes) return formFields(form);
	const shownForForm = { show: { mappingMode: [MAPPING_MODE.fromForm] } };
	return [
		...mappingModeProperties(bodyFields(form)),
		...updateDisplayOptions(shownForForm, formFields(form)),
	];
}

/** The one JSON object a Create or Update sends where the service shows no fields. */
export const JSON_BODY: FieldSpec = {
	name: 'jsonBody',
	label: 'Body (JSON)',
	type: 'json',
	required: true,
	description:
		'The fields to send, as one JSON object: the service publishes no field list for this entity, so every key is sent as written',
};

/** A catalogue entry's Create or Update form; version 2's (`forms`) shows `upFront` fields on the form. */
export function catalogueForm(
	resource: ResourceSpec,
	operation: 'create' | 'update',
	forms = false,
): BodyForm {
	if (resource.jsonBody) return { fields: [JSON_BODY] };
	const fields = fieldsFor(resource, operation);
	const locators = forms && fields.some((spec) => spec.refersTo) ? { locators: true } : {};
	if (operation === 'update') {
		const byLabel = [...fields].sort((a, b) => a.label.localeCompare(b.label, 'en'));
		return {
			fields: [],
			group: { kind: 'update', fields: byLabel },
			mappingModes: true,
			...locators,
		};
	}
	const chosen = [...(resource.createFirst ?? []), ...(forms ? (resource.upFront ?? []) : [])];
	const isFirst = (spec: FieldSpec) => spec.required === true || chosen.includes(spec.name);
	const order = (spec: FieldSpec) => (spec.required ? -1 : chosen.indexOf(spec.name));
	const first = fields.filter(isFirst);
	const rest = fields.filter((spec) => !isFirst(spec));
	return {
		// Version 1 keeps the label order; version 2 the required ones, then the entry's order.
		fields: forms ? [...first].sort((a, b) => order(a) - order(b)) : first,
		...(rest.length
			? { group: { kind: 'additional', fields: rest, description: resource.additionalHint } }
			: {}),
		mappingModes: true,
		...locators,
	};
}
