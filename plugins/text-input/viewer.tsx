import { TextFieldInput, type ChatInputProps } from '#sdk/viewer'

/** The chat field of the block: the app's themed text field, as a text field. */
export default function TextInput(props: ChatInputProps) {
  return <TextFieldInput {...props} kind="text" />
}
