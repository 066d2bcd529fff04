import { useTranslation } from 'react-i18next'
import { type CustomFormProps, HttpRequestTestForm } from '#sdk/forms'

/** The HTTP request form, its Test button sending Make the sample payload it waits for. */
export default function MakeForm(props: CustomFormProps) {
  const { t } = useTranslation()
  return (
    <HttpRequestTestForm
      {...props}
      blockType="Make.com"
      hint={t('httpRequestTest.serviceHint', { service: 'Make' })}
    />
  )
}
