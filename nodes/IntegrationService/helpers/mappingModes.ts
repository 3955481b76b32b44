import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { bodyFields } from './fieldGroups';
import { setIfDefined, wireValue } from './fieldValue';
import { inputError } from './validation';

/** The body's values come from the form (Map Each Field Below) or from the input item (Map Automatically). */
export const MAPPING_MODE = { fromForm: 'defineBelow', fromInput: 'autoMapInputData' } as const;

/** The body from the input item: each of its fields named as a wire field, checked as the form's would be. */
export function bodyFromInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const fields = bodyFields(properties);
	const body: IDataObject = {};
	for (const field of fields) {
		const raw = Object.prototype.hasOwnProperty.call(input, field.name)
			? input[field.name]
			: undefined;
		setIfDefined(
			body,
			field.name,
			wireValue(ctx, itemIndex, field, `Input Field "${field.name}"`, raw),
		);
	}
	if (Object.keys(body).length === 0) {
		throw inputError(
			ctx,
			itemIndex,
			'Map Automatically',
			`the input item has none of the fields this operation sends (${fields.map((field) => field.name).join(', ')})`,
			'Name the input fields as the service does, or choose Map Each Field Below',
		);
	}
	return body;
}

/** The Mapping Mode selector and its hint, for operations whose body can come from the input item. */
export function mappingModeProperties(bodyProperties: INodeProperties[]): INodeProperties[] {
	const names = bodyFields(bodyProperties).map((field) => field.name);
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
			],
			default: 'defineBelow',
		},
		{
			displayName: `Input fields named as the service names them are sent, checked as the form would check them: ${names.join(', ')}. Other input fields are ignored.`,
			name: 'mappingModeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromInput] } },
		},
	];
}

/** The form's fields, shown only while the body is mapped from the form. */
export function shownWhenMappedFromForm(bodyProperties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { mappingMode: [MAPPING_MODE.fromForm] } }, bodyProperties);
}
