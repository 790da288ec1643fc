/** Participant-count rules on sentences quoted from the sample's abstracts (PMID in each test's name). */
import { describe, expect, test } from "bun:test";
import { extractParticipants } from "./rules.ts";

/** The count read from `text`, checking that its span is verbatim. */
function countOf(text: string): number | null {
  const r = extractParticipants(text);
  if (r) expect(text.includes(r.text)).toBe(true);
  return r?.value ?? null;
}

describe("those randomised or enrolled", () => {
  test('"3721 women with a uterus were randomised" beats the group sizes (PMID 18719013)', () => {
    const s =
      "PARTICIPANTS: Postmenopausal women aged 50-69 at randomisation; 3721 women with a uterus were randomised to " +
      "combined oestrogen and progestogen (n=1862) or placebo (n=1859). Data on health related quality of life at " +
      "one year were available from 1043 and 1087 women, respectively.";
    expect(countOf(s)).toBe(3721);
  });

  test('number words: "One hundred thirty-two patients were enrolled (EE, 67; EP, 65)" (PMID 22508830)', () => {
    expect(countOf("RESULTS: One hundred thirty-two patients were enrolled (EE, 67; EP, 65).")).toBe(132);
  });

  test('"One-hundred and five patients met the inclusion criteria" (PMID 29920389)', () => {
    expect(countOf("RESULTS: One-hundred and five patients met the inclusion criteria.")).toBe(105);
  });

  test('verb first: "The study enrolled 25 patients (50 eyes)" (PMID 25840296)', () => {
    expect(countOf("RESULTS: The study enrolled 25 patients (50 eyes).")).toBe(25);
  });

  test('enrolled beats eligible: "Of the 62 patients enrolled; 53 were eligible" (PMID 25974212)', () => {
    expect(
      countOf(
        "Of the 62 patients enrolled; 53 were eligible. 42% (22/53) had stage I/IE; 58% (31/53) stage " + "II/IIE.",
      ),
    ).toBe(62);
  });

  test('"Twenty-five controlled asthmatics treated with ICS … were enrolled" (PMID 22265857)', () => {
    const s =
      "METHODS: Twenty-five controlled asthmatics treated with ICS or ICS plus long-acting β2-agonist (LABA) were " +
      "enrolled for a randomized crossover trial evaluating the effect of additional oral pranlukast.";
    expect(countOf(s)).toBe(25);
  });

  test(
    'randomised beats enrolled: "From 107 patients enrolled … 55 were randomly assigned" reads 107 (PMID ' +
      "31449470)",
    () => {
      const s =
        "RESULTS: From 107 patients enrolled in the trial, 55 were randomly assigned to the NAC arm and 52 to the " +
        "CRT-alone arm.";
      expect(countOf(s)).toBe(107);
    },
  );
});

describe("those who took part", () => {
  test(
    '"Of the 152 eligible patients with STF, 67 were traced and contacted and 40 completed …" (PMID ' + "30348342)",
    () => {
      const s =
        "METHODS: Of the 152 eligible patients with STF, 67 were traced and contacted and 40 completed outcome " +
        "questionnaires (Oswestry Disability index [ODI], Scoliosis Research Society-30 [SRS-30]) and had follow-up " +
        "standing radiographs.";
      expect(countOf(s)).toBe(40);
    },
  );

  test('"Of 2,000 eligible, 1,532 participated" (the form of the brief, in the words of PMID 30348342)', () => {
    expect(countOf("Of 2,000 eligible, 1,532 participated in the survey.")).toBe(1532);
  });

  test('"We identified a total of 11,265 entries for circumferential spine fusion" (PMID 21301391)', () => {
    expect(
      countOf(
        "RESULTS: We identified a total of 11,265 entries for circumferential spine fusion. Of those, " +
          "71.2% (8022) were operated in 1 session.",
      ),
    ).toBe(11265);
  });

  test('"a series of 27 consecutive children observed from 1965 to 1980" (PMID 7087893)', () => {
    const s =
      "We have retrospectively evaluated a series of 27 consecutive children observed from 1965 to 1980 with " +
      "nasopharyngeal carcinoma (NPC). Adjuvant cyclophosphamide (CPM) was administered to a total of 11 children.";
    expect(countOf(s)).toBe(27);
  });

  test('a participants section: "PATIENTS: 351 menopausal patients (mean age, 50 years)" (PMID 15968009)', () => {
    expect(
      countOf(
        "PATIENTS: 351 menopausal patients (mean age, 50 years) with inactive (81.5%) or stable-active " +
          "(18.5%) SLE.",
      ),
    ).toBe(351);
  });

  test(
    'analysed only when nothing else: "Data were analysed from 85 patients (43 early; 42 late)" (PMID ' + "9505772)",
    () => {
      expect(countOf("Data were analysed from 85 patients (43 early extubation; 42 late extubation).")).toBe(85);
    },
  );

  test('a single "(n=423)" (PMID 27189285)', () => {
    expect(
      countOf(
        "MATERIALS AND METHODS: Survivors (n=423) were defined as patients who survived at least 2 years " +
          "after cancer treatment completion.",
      ),
    ).toBe(423);
  });
});

describe("forms found in later batches", () => {
  test('"We randomized 123 African Americans with controlled hypertension" (PMID 26321012)', () => {
    const s =
      "SETTING/PARTICIPANTS: We randomized 123 African Americans with controlled hypertension from an urban " +
      "primary care clinic in Baltimore, Maryland.";
    expect(countOf(s)).toBe(123);
  });

  test("those who responded, not those invited (PMID 24326937)", () => {
    const s =
      "POPULATION: Four hundred and ninety-six patients treated with Boston brace for idiopathic scoliosis were " +
      "invited for long-term follow-up. 390 patients (361 women and 29 men) responded.";
    expect(countOf(s)).toBe(390);
  });

  test("those identified, then those who met the inclusion criteria: 63 of 96 (PMID 28622902)", () => {
    const s =
      "RESULTS: A total of 96 ASD patients were identified, and 63 met the study's inclusion criteria of " +
      "circumferential MIS or posterior MIS only, with four or more levels instrumented.";
    expect(countOf(s)).toBe(63);
  });

  test('thousands separated by a space, "The study evaluated eyes of 18 804 patients" (PMID 26432129)', () => {
    expect(countOf("RESULTS: The study evaluated eyes of 18 804 patients.")).toBe(18804);
  });

  test('"40 chronic renal failure patients … were randomly divided into two groups" (PMID 26702214)', () => {
    const s =
      "MATERIAL AND METHODS: In a prospective double-blind study, 40 chronic renal failure patients undergoing " +
      "open renal transplant were randomly divided into two groups.";
    expect(countOf(s)).toBe(40);
  });
});

describe("what is not a count of participants", () => {
  test("group sizes are not added up: 1387 cases and 1459 controls (PMID 20727127)", () => {
    const s =
      "METHODS: To evaluate the association between dietary factors and NPC risk in Guangdong, China, a " +
      "large-scale, hospital-based case-control study was conducted. 1387 eligible cases and 1459 frequency " +
      "matched controls were recruited.";
    expect(countOf(s)).toBeNull();
  });

  test('two groups of a list: "119 patients … and 42 patients … were enrolled" (PMID 18007250)', () => {
    const s =
      "METHODS: At a single tertiary referral children's hospital spinal clinic, 119 patients undergoing scoliosis " +
      "surgery and 42 patients undergoing observation only for scoliosis were enrolled in a prospective study.";
    expect(countOf(s)).toBeNull();
  });

  test('several group sizes "n = 20" and "n = 24" are no total (PMID 20614219)', () => {
    const s =
      "Individuals with confirmed imaging or pathologic evidence of pulmonary fibrosis were divided into a study " +
      "group with concomitant emphysema (CPFE group, n = 20) and a control group without emphysema (isolated " +
      "pulmonary fibrosis (PF) group, n = 24).";
    expect(countOf(s)).toBeNull();
  });

  test("years, ages and doses are not counts (PMID 8655371, PMID 9307197, PMID 21301391)", () => {
    expect(
      countOf(
        "Patients received 50-72 Gy to the primary tumor and involved nodes, and 45-50 Gy to uninvolved " + "regions.",
      ),
    ).toBeNull();
    expect(countOf("The median age was 12 years (range, 8-16 years).")).toBeNull();
    const years = "Data collected between 1998 and 2006 for the Nationwide Inpatient Sample were analyzed.";
    expect(countOf(years)).toBeNull();
  });

  test('"Thirty-six percent" is not 36 people; "of 14 patients" is the weakest reading (PMID 15805945)', () => {
    const s = "Thirty-six percent (five of 14 patients) reported difficulty doing perineal care after fusion.";
    expect(countOf(s)).toBe(14);
  });

  test('"treated … between 1976 and 1989 were included" counts no 1989 people (PMID 19713874)', () => {
    const s =
      "METHODS: Thirty-two patients treated surgically for scoliosis between 1976 and 1989 were included in this " +
      "study.";
    expect(countOf(s)).toBe(32);
  });

  test("an abstract without a count gives null (PMID 12942121)", () => {
    expect(countOf("Patients with tumours bearing high LDH-5 expression had a poor prognosis.")).toBeNull();
    expect(extractParticipants("")).toBeNull();
  });
});
