import { TextFieldInput, type ChatInputProps } from '#sdk/viewer'

/** The chat field of the block: the app's themed text field, as an url field. */
export default function UrlInput(props: ChatInputProps) {
  return <TextFieldInput {...props} kind="url" />
}
