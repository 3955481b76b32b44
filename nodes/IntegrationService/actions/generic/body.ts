import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import {
	mappingModeProperties,
	readBody,
	shownWhenMappedFromForm,
} from '../../helpers/fieldMapper';
import type { OperationModule } from '../node.type';
import { readOutput, shapeRecord } from '../output';
import { readId } from '../parameters';
import { idOf, sendToEntity, shownForResource } from './entity';

/** How an operation's body is offered: with Mapping Mode (Map Automatically) or as form fields only. */
export interface BodyForm {
	properties: INodeProperties[];
	mappingModes?: boolean;
}

function bodyDescription(form: BodyForm): INodeProperties[] {
	return form.mappingModes
		? [...mappingModeProperties(form.properties), ...shownWhenMappedFromForm(form.properties)]
		: form.properties;
}

function bodyOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	form: BodyForm,
	create = false,
): IDataObject {
	return readBody(ctx, itemIndex, form.properties, {
		mappingModes: form.mappingModes === true,
		create,
	});
}

/** Create: POST {host}/api/{path} with the body checked field by field before anything is sent. */
export function createOperation(resource: ResourceSpec, form: BodyForm): OperationModule {
	return {
		description: updateDisplayOptions(shownForResource(resource, 'create'), bodyDescription(form)),
		async execute(itemIndex, run) {
			const body = bodyOf(this, itemIndex, form, true);
			const choice = readOutput(this, itemIndex);
			const record = await sendToEntity(this, itemIndex, run, resource, { method: 'POST', body });
			return [shapeRecord(record, choice)];
		},
	};
}

/**
 * Update: PUT {host}/api/{path}/{id}, the ID read (and checked) first; `idProperty` is the field that
 * asks for it (named as the catalogue's ID), the changed record the one output item.
 */
export function updateOperation(
	resource: ResourceSpec,
	idProperty: INodeProperties,
	form: BodyForm,
): OperationModule {
	const id = idOf(resource);
	return {
		description: updateDisplayOptions(shownForResource(resource, 'update'), [
			idProperty,
			...bodyDescription(form),
		]),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const body = bodyOf(this, itemIndex, form);
			const choice = readOutput(this, itemIndex);
			const record = await sendToEntity(this, itemIndex, run, resource, {
				method: 'PUT',
				path: [segment],
				body,
			});
			return [shapeRecord(record, choice)];
		},
	};
}
