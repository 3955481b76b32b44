/**
 * Calls one of the node's list search methods as the n8n editor does: n8n-core's LoadOptionsContext
 * on a workflow holding the node with the form's current parameters, the credential decrypted by the
 * test helper.
 */
import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	additionalDataFor,
	CREDENTIAL_TYPE,
	loadPackage,
	NODE_TYPE,
	TestCredentialsHelper,
} from './engine';

export interface SearchOptions {
	/** The list search method, e.g. searchPerson. */
	method: string;
	credentials: ICredentialDataDecryptedObject;
	/** The form's parameters as the editor sends them (Options › Connection ID among them). */
	parameters?: INodeParameters;
	filter?: string;
	paginationToken?: string;
}

let searches = 0;

export async function searchList(options: SearchOptions): Promise<INodeListSearchResult> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const credentialId = `search${++searches}`;
	const helper = new TestCredentialsHelper(credentialTypes, {
		[credentialId]: options.credentials,
	});
	const node: INode = {
		id: 'subject',
		name: 'Integration Service',
		type: NODE_TYPE,
		typeVersion: 2,
		position: [0, 0],
		parameters: { resource: 'note', operation: 'create', ...options.parameters },
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Integration Service account' } },
	};
	const workflow = new Workflow({
		id: 'search-workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const context = new LoadOptionsContext(workflow, node, additionalDataFor(helper), 'parameters');
	const type = nodeTypes.getByNameAndVersion(NODE_TYPE, 2) as INodeType | IVersionedNodeType;
	const search = (type as INodeType).methods?.listSearch?.[options.method];
	if (!search) throw new Error(`The node has no list search ${options.method}`);
	return await search.call(context, options.filter, options.paginationToken);
}
