/*
| Policies are lazily imported by name: bouncer.with('WorkspacePolicy').
*/
export const policies = {
  WorkspacePolicy: () => import('#policies/workspace_policy'),
  FolderPolicy: () => import('#policies/folder_policy'),
  KnowledgeStorePolicy: () => import('#policies/knowledge_store_policy'),
  BotPolicy: () => import('#policies/bot_policy'),
  WorkflowPolicy: () => import('#policies/workflow_policy'),
}
