import { definePlugin, field } from '#sdk/plugin'

export const FIRESTORE_DEFAULT_BASE_URL = 'https://firestore.googleapis.com'
export const FIRESTORE_SCOPE = 'https://www.googleapis.com/auth/datastore'

function collectionField() {
  return field.string({
    label: 'Collection',
    allowVariables: true,
    required: true,
    placeholder: 'orders',
  })
}

function conditionsField() {
  return field.keyValue({
    label: 'Conditions',
    keyLabel: 'Field',
    valueLabel: 'Equals',
    allowVariables: true,
    helperText: 'Documents whose fields equal all of these.',
  })
}

function recordFields(label: string) {
  return field.keyValue({ label, keyLabel: 'Field', valueLabel: 'Value', allowVariables: true })
}

/**
 * Firebase (Cloud Firestore): add a document to a collection, find, update and delete the
 * documents whose fields equal the conditions. Signs in as a service account: its key file
 * (JSON) signs the token request, Firestore's REST API v1.
 */
export default definePlugin({
  id: 'firebase',
  name: 'Firebase',
  fullName: 'Firebase Firestore',
  tags: ['database', 'google', 'nosql', 'documents'],
  description: 'Add, find, update and delete documents of a Cloud Firestore collection',
  category: 'integration',
  categories: { workflow: 'data' },
  scope: 'workspace',
  icon: 'flame',
  version: 1,
  docsUrl: 'https://firebase.google.com/docs/firestore/use-rest-api',
  serves: ['bot', 'workflow'],
  credentials: {
    serviceJson: field.string({
      label: 'Service account key (JSON)',
      secret: true,
      required: true,
      helperText:
        'Firebase console > Project settings > Service accounts > Generate new private key: paste the whole file.',
    }),
    baseUrl: field.string({
      format: 'url',
      label: 'Firestore API base URL',
      defaultValue: FIRESTORE_DEFAULT_BASE_URL,
    }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Firebase project',
      credentialType: 'firebase',
      required: true,
    }),
  },
  actions: {
    'Insert record': {
      label: 'Insert a document',
      options: { collection: collectionField(), fields: recordFields('Fields') },
    },
    'Find records': {
      label: 'Find documents',
      options: {
        collection: collectionField(),
        conditions: conditionsField(),
        responseMapping: field.responseMapping({ label: 'Save fields in variables', key: 'field' }),
      },
    },
    'Update records': {
      label: 'Update documents',
      options: {
        collection: collectionField(),
        conditions: conditionsField(),
        fields: recordFields('Fields to set'),
      },
    },
    'Delete records': {
      label: 'Delete documents',
      options: { collection: collectionField(), conditions: conditionsField() },
    },
  },
})
