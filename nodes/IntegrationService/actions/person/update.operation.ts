import type { INodeProperties } from 'n8n-workflow';

import { personResource } from '../../../shared/catalogue/person';
import { fieldGroup } from '../../helpers/fieldMapper';
import { idProperty } from '../generic/entity';
import { updateOperation } from '../generic/body';
import { personFields } from './create.operation';

/** Every field Create writes, each optional (decisions.md: the service's public documentation). */
const bodyProperties: INodeProperties[] = [fieldGroup('update', personFields)];

/** PUT {crm}/api/people/{id}: the changed person. Fields not sent stay as they are. */
export const { description, execute } = updateOperation(
	personResource,
	idProperty(personResource, 'change'),
	{ properties: bodyProperties, mappingModes: true },
);
