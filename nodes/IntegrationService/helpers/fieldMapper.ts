import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isFieldGroup, UPDATE_FIELDS } from './fieldGroups';
import { setIfDefined, wireValue } from './fieldValue';
import { bodyFromInput, bodyFromRecord, MAPPING_MODE } from './mappingModes';
import { inputError } from './validation';

/**
 * One way to turn an operation's body fields into the request body, driven by the operation's own
 * properties: the parameter name is the wire field, the display name labels errors, the type (and
 * `required`, `minValue`, `multipleValues`, a JSON default of `[]`) says how the value is checked. A field
 * inside a collection is labelled `Collection › Field`, the same in every operation. How one value is
 * read is in fieldValue.ts, the compound fields in fields/, Map Automatically and Record (JSON) in
 * mappingModes.ts.
 */

// The names operations and tests import from here, kept where they were.
export { fieldGroup } from './fieldGroups';
export { mappingModeProperties, shownWhenMappedFromForm } from './mappingModes';
export { COMPOUND_FIELDS } from './fields';
export { ADDRESS_PARTS } from './fields/addresses';
export { COMMUNICATION_CHANNELS } from './fields/consent';
export { flagLabel } from './fields/flags';

/** The body from the node's parameters: top-level fields and those added to a field group. */
function bodyFromForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const body: IDataObject = {};
	for (const property of properties) {
		const raw = ctx.getNodeParameter(property.name, itemIndex, property.default);
		if (!isFieldGroup(property)) {
			setIfDefined(
				body,
				property.name,
				wireValue(ctx, itemIndex, property, property.displayName, raw),
			);
			continue;
		}
		const added = (raw ?? {}) as IDataObject;
		for (const field of (property.options ?? []) as INodeProperties[]) {
			const label = `${property.displayName} › ${field.displayName}`;
			setIfDefined(body, field.name, wireValue(ctx, itemIndex, field, label, added[field.name]));
		}
	}
	return body;
}

/**
 * The request body of one item. Every check runs here, before anything is sent. With `mappingModes`,
 * the item's Mapping Mode says whether the body comes from the form, the input item or Record (JSON).
 */
export function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	options: { mappingModes?: boolean } = {},
): IDataObject {
	const mode = options.mappingModes
		? ctx.getNodeParameter('mappingMode', itemIndex, MAPPING_MODE.fromForm)
		: MAPPING_MODE.fromForm;
	if (mode === MAPPING_MODE.fromInput) return bodyFromInput(ctx, itemIndex, properties);
	if (mode === MAPPING_MODE.fromRecord) return bodyFromRecord(ctx, itemIndex, properties);
	const body = bodyFromForm(ctx, itemIndex, properties);
	const updateGroup = properties.find((property) => property.name === UPDATE_FIELDS);
	if (updateGroup && Object.keys(body).length === 0) {
		throw inputError(ctx, itemIndex, updateGroup.displayName, 'add at least one field');
	}
	return body;
}
