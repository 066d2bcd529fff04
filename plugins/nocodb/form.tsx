import { BlockTestForm, type CustomFormProps } from '#sdk/forms'

/** The generated form plus Test: the block runs with the workspace's stored credentials. */
export default function NocoDbForm(props: CustomFormProps) {
  return <BlockTestForm {...props} type="nocodb" />
}
