/** Design-from-wording rules on sentences quoted from the sample's abstracts (PMID in each test's name). */
import { describe, expect, test } from "bun:test";
import { designFromAbstract } from "./design-text.ts";

describe("the design the authors state", () => {
  test('"In a double-blind randomized trial, 20 patients were assigned …" is a randomised trial (PMID 9861576)', () => {
    const s =
      "In a double-blind randomized trial, 20 patients were assigned to receive fluvoxamine 100 mg/day [DOSAGE " +
      "ERROR CORRECTED] or fluoxetine 20 mg/day [DOSAGE ERROR CORRECTED] for 6 weeks.";
    expect(designFromAbstract(s)).toBe("rct");
  });

  test('"were randomly allocated to 3 groups" is a randomised trial (PMID 26432316)', () => {
    expect(
      designFromAbstract(
        "METHODS: Ten male beagles were randomly allocated to 3 groups: group C, OTM alone as " + "a control.",
      ),
    ).toBe("rct");
  });

  test('"We conducted a retrospective cohort study" (PMID 12438660)', () => {
    const s =
      "We conducted a retrospective cohort study in 3,440 NRI-exposed and 3,088 nonexposed subjects, who as " +
      "children were treated at nine ear, nose and throat clinics in The Netherlands between 1945 and 1981.";
    expect(designFromAbstract(s)).toBe("cohort");
  });

  test('"a large-scale, hospital-based case-control study was conducted" (PMID 20727127)', () => {
    const s =
      "METHODS: To evaluate the association between dietary factors and NPC risk in Guangdong, China, a " +
      "large-scale, hospital-based case-control study was conducted.";
    expect(designFromAbstract(s)).toBe("case-control");
  });

  test('"DESIGN: Retrospective cross-sectional study." (PMID 26432122)', () => {
    expect(designFromAbstract("DESIGN: Retrospective cross-sectional study.")).toBe("cross-sectional");
  });

  test('"a phase 3, open-label, uncontrolled trial" is a (non-randomised) clinical trial (PMID 26187300)', () => {
    const s =
      "PATIENT(S): Women aged 18-39 from a phase 3, open-label, uncontrolled trial with complete data across " +
      "all cycles (n = 176).";
    expect(designFromAbstract(s)).toBe("clinical-trial");
  });

  test('"To perform a meta-analysis of the literature …" (PMID 26215757)', () => {
    const s =
      "OBJECTIVE: To perform a meta-analysis of the literature examining the influence of paternal age on " +
      "oocyte donation outcomes.";
    expect(designFromAbstract(s)).toBe("meta-analysis");
  });

  test(
    'a case series is "observational": "We have retrospectively evaluated a series of 27 consecutive children" ' +
      "(PMID 7087893)",
    () => {
      const s =
        "We have retrospectively evaluated a series of 27 consecutive children observed from 1965 to 1980 with " +
        "nasopharyngeal carcinoma (NPC).";
      expect(designFromAbstract(s)).toBe("observational");
    },
  );

  test('"Retrospective study of patients with diagnosis of brucellar spondylodiscitis" (PMID 24813488)', () => {
    const s =
      "MATERIAL AND METHODS: Retrospective study of patients with diagnosis of brucellar spondylodiscitis admitted " +
      "to the Infectious Diseases Department of Centro Hospitalar e Universitário de Coimbra, over a 25-year " +
      "period (1988-2012).";
    expect(designFromAbstract(s)).toBe("observational");
  });
});

describe("mentions of other work", () => {
  test(
    '"remains to be determined by randomized studies" does not make a retrospective series a trial (PMID ' + "8655371)",
    () => {
      const s =
        "PURPOSE: To report a retrospective analysis of epidemiologic, clinical, and therapeutic aspects of 50 " +
        "children with newly diagnosed nasopharyngeal carcinoma who were treated in a single institution over a " +
        "period of 18 years. CONCLUSION: Whereas the impact of chemotherapy on long-term survival remains to be " +
        "determined by randomized studies, the results suggest that more effective treatment regimens and long-term " +
        "follow-up are necessary.";
      expect(designFromAbstract(s)).toBe("observational");
    },
  );

  test(
    '"a systematic review of history, examination, and investigations" is no systematic review (PMID ' + "31418851)",
    () => {
      const s =
        "METHODS: Identification of the underlying etiology and response to treatment in 377 infants using a " +
        "systematic review of history, examination, and investigations.";
      expect(designFromAbstract(s)).toBeNull();
    },
  );

  test("an abstract that names no design gives null (PMID 12942121)", () => {
    expect(designFromAbstract("Patients with tumours bearing high LDH-5 expression had a poor prognosis.")).toBeNull();
    expect(designFromAbstract("")).toBeNull();
  });
});
