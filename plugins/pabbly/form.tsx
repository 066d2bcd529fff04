import { useTranslation } from 'react-i18next'
import { type CustomFormProps, HttpRequestTestForm } from '#sdk/forms'

/** The HTTP request form, its Test button sending Pabbly the sample payload it waits for. */
export default function PabblyForm(props: CustomFormProps) {
  const { t } = useTranslation()
  return (
    <HttpRequestTestForm
      {...props}
      blockType="Pabbly"
      hint={t('httpRequestTest.serviceHint', { service: 'Pabbly' })}
    />
  )
}
