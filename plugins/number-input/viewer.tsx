import { TextFieldInput, type ChatInputProps } from '#sdk/viewer'

/** The chat field of the block: the app's themed text field, as a number field. */
export default function NumberInput(props: ChatInputProps) {
  return <TextFieldInput {...props} kind="number" />
}
