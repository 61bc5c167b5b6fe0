"""The papers' printed numbers, as data: every table the reproduction compares with.

Nothing here is computed; each block says where in its paper the numbers are printed. The
experiments (one module per paper) read them under their own names.

- Brito, Celeux & Sousa Ferreira (2006): Tables 3, 4, 5 and 8 (``_gaussian.py``,
  ``_combine.py``);
- Archer & Mas (2009): the pairwise Wilcoxon p-values of Tables I-II (``_ordinal.py``);
- Tutz & Hechenbichler (2003): Tables 1-2 (``_tutz.py``);
- Waegeman & Boullart (2006): Tables I-III (``_waegeman.py``);
- the dissertation "Ensemble methods for ordinal data classification": Tables 4.1-5.3 as mean,
  standard deviation and significance mark per cell (``_dissertation.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARK_WORSE, MARK_BETTER = "\u2022", "\u2218"  # the dissertation's "•" and "∘"


# ---- Brito, Celeux & Sousa Ferreira (2006) ---------------------------------------------------

# Table 3: the EDDA models a correspondence analysis retained for each set (mclust's names, in
# the paper's order); Tables 4 and 5 combine these.
BRITO_TABLE3 = {"bupa": ("EEI", "VEI", "EII", "VII"), "crabs": ("EEE", "EII"),
                "haberman": ("EEV", "EVI", "EII"), "haemophilia": ("EEE", "VEE", "EII"),
                "iris": ("EEI", "EII"), "thyroid": ("EEI", "EII")}
# Tables 4-5, EDDA column (the same in both): model and leave-one-out error.
BRITO_TABLE45_EDDA = {"bupa": ("EEI", 0.4000), "crabs": ("EII", 0.0500),
                      "haberman": ("EVI", 0.2516), "haemophilia": ("EEE", 0.1467),
                      "iris": ("EEI", 0.0400), "thyroid": ("EEI", 0.0977)}
# Table 8, EDDA column (the sets with more than two groups only).
BRITO_TABLE8_EDDA = {"crabs": ("EEV", 0.045), "iris": ("EEE", 0.02), "thyroid": ("VEI", 0.0326)}

# Table 4 (committee of methods) and Table 5 (penalised likelihood ratios): the printed
# combination as {model: weight} (a single model printed alone has weight 1) and its
# leave-one-out error. Table 5 prints [lambda B_k] (EVI) for bupa, a model its Table 3 does not
# retain for bupa.
BRITO_TABLE4 = {"bupa": ({"EEI": 0.79, "EII": 0.21}, 0.3971), "crabs": ({"EEE": 1.0}, 0.5000),
                "haberman": ({"EEV": 0.4, "EII": 0.6}, 0.2549),
                "haemophilia": ({"EEE": 1.0}, 0.1600), "iris": ({"EEI": 0.82, "EII": 0.18}, 0.0400),
                "thyroid": ({"EEI": 0.73, "EII": 0.27}, 0.0930)}
BRITO_TABLE5 = {"bupa": ({"EVI": 1.0}, 0.4000), "crabs": ({"EEE": 1.0}, 0.5000),
                "haberman": ({"EVI": 1.0}, 0.2516),
                "haemophilia": ({"EEE": 0.32, "VEE": 0.68}, 0.1600), "iris": ({"EEI": 1.0}, 0.0400),
                "thyroid": ({"EEI": 1.0}, 0.0977)}

# Table 8, hierarchical coupling column, and what the paper's text says of each tree.
BRITO_TABLE8 = {"crabs": 0.045, "iris": 0.02, "thyroid": 0.0372}
BRITO_FIRST_SPLIT = {"iris": "setosa | versicolor, virginica", "crabs": "B.F, B.M | O.F, O.M",
                     "thyroid": "Hyper | Hypo, Normal"}
# (node's classes, model named in the text of section 5.2)
BRITO_NODE_MODELS = {
    "iris": [(("setosa", "versicolor", "virginica"), "EII")],
    "crabs": [(("B.F", "B.M", "O.F", "O.M"), "EEE"), (("B.F", "B.M"), "EEV"),
                    (("O.F", "O.M"), "EVE")],
    "thyroid": [(("Hyper", "Hypo", "Normal"), None), (("Hypo", "Normal"), None)],
}


# ---- Archer & Mas (2009) ----------------------------------------------------------------------

#: the paper's Tables I (per-tree OOB error) and II (gamma): unadjusted pairwise Wilcoxon p-values,
#: (row, column) -> p as printed
ARCHER_PAIRWISE_P = {
    "misclassification": {
        ("Gini", "Linear cost"): "0.004", ("Gini", "Quadratic cost"): "0.001",
        ("Gini", "Ordinal"): "<0.0001", ("Gini", "Ordered Twoing"): "<0.0001",
        ("Linear cost", "Quadratic cost"): "0.64", ("Linear cost", "Ordinal"): "0.003",
        ("Linear cost", "Ordered Twoing"): "0.0002", ("Quadratic cost", "Ordinal"): "0.01",
        ("Quadratic cost", "Ordered Twoing"): "0.001", ("Ordinal", "Ordered Twoing"): "0.42",
    },
    "gamma": {
        ("Gini", "Linear cost"): "0.006", ("Gini", "Quadratic cost"): "0.002",
        ("Gini", "Ordinal"): "<0.0001", ("Gini", "Ordered Twoing"): "<0.0001",
        ("Linear cost", "Quadratic cost"): "0.19", ("Linear cost", "Ordinal"): "0.0002",
        ("Linear cost", "Ordered Twoing"): "0.0008", ("Quadratic cost", "Ordinal"): "0.01",
        ("Quadratic cost", "Ordered Twoing"): "0.03", ("Ordinal", "Ordered Twoing"): "0.37",
    },
}


# ---- Tutz & Hechenbichler (2003) ------------------------------------------------------------

# Tables 1 (scapula) and 2 (car): (misclass, mean abs, mean squ), resubstitution then test,
# one line per method in the order of _tutz.METHODS. Cells marked "?" are illegible or
# inconsistent in our copy.
TUTZ_TABLE1 = [  # scapula
    ((0.418, 0.608, 1.183), (0.676, 1.085, 2.365)),
    ((0.379, 0.484, 0.784), (0.652, 0.995, 2.112)),
    ((0.176, 0.327, 0.824), (0.663, 0.982, 1.925)),
    (("0.176?", 0.386, 0.621), (0.628, 0.828, 1.375)),
    ((0.046, 0.046, 0.046), (0.649, 0.932, 1.747)),
    ((0.026, 0.026, 0.026), (0.646, 0.904, 1.619)),
    ((0.000, 0.000, 0.000), (0.629, 0.799, 1.215)),
    ((0.000, 0.000, 0.000), (0.646, 0.818, 1.244)),
    ((0.118, 0.118, 0.118), (0.635, 0.884, 1.633)),
    ((0.373, 0.399, 0.451), (0.681, 0.864, 1.300)),
    ((0.176, 0.176, 0.176), (0.611, 0.841, 1.473)),
    ((0.405, 0.418, 0.444), (0.691, 0.878, 1.330)),
]
TUTZ_TABLE2 = [  # car
    ((0.632, 0.803, 1.146), (0.653, 0.858, 1.292)),
    ((0.573, 0.691, 0.928), (0.635, 0.787, 1.107)),
    ((0.520, 0.646, 0.903), (0.626, 0.797, 1.148)),
    (("0.520?", 0.585, 0.721), ("0.626?", 0.725, 0.925)),
    ((0.266, 0.346, 0.507), (0.621, 0.810, 1.213)),
    ((0.270, 0.333, 0.464), (0.611, 0.786, 1.154)),
    ((0.240, 0.253, 0.281), (0.613, 0.769, 1.105)),
    ((0.102, 0.233, "0.231?"), (0.623, 0.808, 1.212)),
    ((0.494, 0.541, 0.634), (0.614, 0.737, 0.992)),
    ((0.575, 0.579, 0.586), (0.628, 0.714, 0.886)),
    ((0.415, 0.453, 0.528), (0.609, 0.799, 1.217)),
    ((0.588, 0.595, 0.610), (0.630, 0.720, 0.899)),
]


# ---- Waegeman & Boullart (2006) -------------------------------------------------------------

#: Tables I-II as printed: data set -> (MCOSvm, Svorim, Wilcoxon rank-sum p); Table III:
#: (Sens_1^2 MCOSvm, Spec_1^2 MCOSvm, Sens_1^2 Svorim, Spec_1^2 Svorim). Strings, so that the
#: printed decimals are kept (they set the rounding allowance of a claim).
WAEGEMAN_TABLE_I = {
    "Boston housing": ("66.52", "67.44", "0.34"), "Abalone": ("47.4", "47.3", "0.96"),
    "Computer": ("73.06", "71.22", "< 0.001"), "Machine CPU": ("41.37", "40.08", "0.59"),
    "Synthetic 1": ("91.25", "90.95", "0.71"), "Synthetic 2": ("86.03", "85.22", "0.16")}
WAEGEMAN_TABLE_II = {
    "Boston housing": ("0.38", "0.35", "0.02"), "Abalone": ("0.66", "0.65", "0.02"),
    "Computer": ("0.29", "0.30", "< 0.001"), "Machine CPU": ("0.49", "0.43", "0.02"),
    "Synthetic 1": ("0.092", "0.093", "0.74"), "Synthetic 2": ("0.18", "0.18", "0.88")}
# Table III calls the synthetic sets "3clusters" and "4clusters", in the order of Tables I-II.
WAEGEMAN_TABLE_III = {
    "Boston housing": ("0.80", "0.95", "0.75", "0.96"),
    "Abalone": ("0.45", "0.95", "0.39", "0.96"),
    "Computer": ("0.86", "0.98", "0.87", "0.97"),
    "Machine CPU": ("0.63", "0.93", "0.51", "0.97"),
    "Synthetic 1": ("0.95", "0.98", "0.92", "0.98"),
    "Synthetic 2": ("0.89", "0.96", "0.86", "0.96")}


# ---- the dissertation "Ensemble methods for ordinal data classification" ---------------------

@dataclass(frozen=True)
class Cell:
    """One printed number of the dissertation: mean, standard deviation (None where the table
    prints none) and the significance mark ("", "•" or "∘")."""

    mean: float
    sd: float | None = None
    mark: str = ""


_CELL = re.compile(r"(\d+\.\d+)(?:\((\d+\.\d+)\))?\s*([\u2022\u2218]?)")


def _cells(printed):
    """A table row as the dissertation prints it ("5.48(2.29) | 5.22(2.08)• 5.39(2.33)"; the
    bar after the first column is only read as a separator) as Cells."""
    return tuple(Cell(float(m), float(s) if s else None, k)
                 for m, s, k in _CELL.findall(printed))


def _table(rows):
    return {name: _cells(printed) for name, printed in rows.items()}


# Table 4.1: oDT with the eight combination rules (columns in RULES' order); (a) error %,
# (b) mean absolute error, (c) tree size (nodes). Means of 10 x 10-fold CV, no deviations.
T41_ERROR = _table({
    "Circle": "5.48 5.46 5.46 6.07 6.08 5.45 5.44 5.56",
    "ERA": "74.48 74.41 74.48 74.73 74.88 74.53 74.46 74.38",
    "ESL": "34.75 34.74 34.63 35.33 38.71 38.42 35.50 38.36",
    "LEV": "38.42 38.98 38.46 38.96 39.99 38.74 38.73 42.46",
    "SWD": "42.13 42.20 42.14 42.93 45.24 42.58 42.10 43.67",
    "Balance": "22.77 22.85 22.79 22.97 22.66 22.79 22.73 24.22"})
T41_MAE = _table({
    "Circle": "0.05 0.05 0.05 0.06 0.06 0.05 0.05 0.06",
    "ERA": "1.24 1.24 1.24 1.24 1.26 1.24 1.24 1.24",
    "ESL": "0.38 0.38 0.38 0.38 0.43 0.42 0.39 0.42",
    "LEV": "0.42 0.43 0.42 0.43 0.44 0.42 0.42 0.48",
    "SWD": "0.45 0.45 0.45 0.45 0.48 0.46 0.45 0.47",
    "Balance": "0.29 0.29 0.29 0.29 0.29 0.29 0.29 0.31"})
T41_SIZE = _table({
    "Circle": "54.64 54.54 54.56 54.34 58.06 54.50 54.48 54.52",
    "ERA": "11.74 11.86 11.74 11.68 14.16 11.96 11.80 11.92",
    "ESL": "29.86 29.14 30.20 29.92 28.98 26.98 29.12 28.50",
    "LEV": "23.16 26.70 23.28 26.30 28.88 23.82 23.26 41.24",
    "SWD": "26.68 27.88 26.84 28.24 27.20 27.10 27.38 34.40",
    "Balance": "75.26 77.56 75.36 77.24 77.46 77.32 75.80 85.52"})

# Table 4.2: oDT | C4.5, Frank & Hall (C4.5 trees)
T42_ERROR = _table({
    "Circle": "5.48(2.29) | 5.22(2.08) 5.39(2.33)",
    "ERA": "74.48(4.21) | 72.22(3.78) 72.67(3.96)",
    "ESL": "34.75(6.68) | 35.17(6.04) 34.84(5.93)",
    "LEV": "38.42(4.41) | 39.56(4.13) 38.96(4.29)",
    "SWD": "42.13(4.86) | 43.18(4.29) 41.64(4.34)",
    "Balance": "22.77(4.57) | 22.56(3.33) 24.02(4.36)"})
T42_MAE = _table({
    "Circle": "0.05(0.02) | 0.05(0.02) 0.05(0.02)",
    "ERA": "1.24(0.11) | 1.32(0.11)\u2022 1.22(0.10)",
    "ESL": "0.38(0.08) | 0.39(0.07) 0.37(0.07)",
    "LEV": "0.42(0.05) | 0.43(0.05) 0.42(0.05)",
    "SWD": "0.45(0.05) | 0.46(0.05) 0.44(0.05)",
    "Balance": "0.29(0.06) | 0.33(0.06)\u2022 0.29(0.06)"})

# Table 5.1: oAdaBoost limited to 10 rounds, the eight rules
T51_ERROR = _table({
    "Circle": "20.43 20.43 20.43 20.38 21.41 22.08 20.59 20.25",
    "ERA": "75.12 75.12 74.97 74.93 75.17 75.23 75.16 74.88",
    "ESL": "35.41 35.41 35.44 36.31 36.04 34.65 33.91 35.60",
    "LEV": "38.40 38.40 38.24 38.33 39.96 38.40 38.42 38.35",
    "SWD": "43.84 43.84 43.83 43.38 44.42 43.14 43.82 43.96",
    "Balance": "15.40 15.40 15.43 15.19 15.27 15.76 15.43 15.19"})
T51_MAE = _table({
    "Circle": "0.21 0.21 0.21 0.21 0.22 0.23 0.21 0.21",
    "ERA": "1.23 1.23 1.23 1.23 1.24 1.23 1.23 1.23",
    "ESL": "0.38 0.38 0.38 0.39 0.39 0.38 0.37 0.39",
    "LEV": "0.42 0.42 0.42 0.42 0.44 0.42 0.42 0.42",
    "SWD": "0.46 0.46 0.46 0.45 0.46 0.45 0.46 0.46",
    "Balance": "0.21 0.21 0.21 0.20 0.20 0.21 0.21 0.20"})

# Table 5.2: oAdaBoost | AdaBoost.M1, AdaBoost.M1W, AdaBoost.OR (decision stumps, 100 rounds)
T52_ERROR = _table({
    "Circle": "6.87(2.61) | 39.58(3.07)\u2022 55.03(1.28)\u2022 16.16(3.79)\u2022",
    "ERA": "75.09(3.87) | 78.19(2.32) 77.94(3.50) 78.10(2.31)",
    "ESL": "33.02(6.08) | 56.97(2.89)\u2022 46.77(6.05)\u2022 44.86(5.48)\u2022",
    "LEV": "37.63(4.44) | 57.60(2.85)\u2022 42.14(4.72)\u2022 50.34(4.19)\u2022",
    "SWD": "43.09(5.01) | 48.20(3.90)\u2022 48.26(5.13)\u2022 48.20(3.90)\u2022",
    "Balance": "2.57(2.14) | 28.23(4.24)\u2022 8.29(2.40)\u2022 16.78(7.99)\u2022"})
T52_MAE = _table({
    "Circle": "0.07(0.03) | 0.44(0.03)\u2022 0.55(0.01)\u2022 0.16(0.04)\u2022",
    "ERA": "1.24(0.10) | 1.43(0.07)\u2022 1.44(0.12)\u2022 1.43(0.07)\u2022",
    "ESL": "0.35(0.07) | 0.73(0.06)\u2022 0.56(0.08)\u2022 0.51(0.07)\u2022",
    "LEV": "0.41(0.05) | 0.71(0.03)\u2022 0.46(0.06)\u2022 0.57(0.05)\u2022",
    "SWD": "0.45(0.05) | 0.50(0.04)\u2022 0.54(0.06)\u2022 0.50(0.04)\u2022",
    "Balance": "0.03(0.02) | 0.49(0.09)\u2022 0.08(0.02)\u2022 0.18(0.09)\u2022"})

# Table 5.3 (a, b): Random Forest | R. For. (Median), R. For. (oDT), R. For. (oDT + Median)
T53_ERROR = _table({
    "Circle": "4.63(2.16) | 4.62(2.18) 5.01(2.09) 4.94(2.04)",
    "ERA": "73.87(4.41) | 75.46(3.65) 73.95(4.53) 74.01(4.42)",
    "ESL": "33.43(5.95) | 33.76(5.92) 32.20(5.86) 31.93(5.89)",
    "LEV": "37.69(4.00) | 36.58(4.06) 37.36(4.53) 37.28(4.58)",
    "SWD": "42.79(4.34) | 41.07(4.44) 41.57(4.32) 41.50(4.33)",
    "Balance": "18.47(3.54) | 18.28(4.24) 17.94(3.99) 14.91(4.99)\u2218"})
T53_MAE = _table({
    "Circle": "0.05(0.02) | 0.05(0.02) 0.05(0.02) 0.05(0.02)",
    "ERA": "1.36(0.13) | 1.28(0.10)\u2218 1.22(0.11)\u2218 1.22(0.11)\u2218",
    "ESL": "0.36(0.06) | 0.36(0.06) 0.35(0.07) 0.34(0.07)",
    "LEV": "0.41(0.05) | 0.40(0.05) 0.41(0.05) 0.41(0.05)",
    "SWD": "0.46(0.05) | 0.43(0.05)\u2218 0.43(0.05) 0.43(0.05)",
    "Balance": "0.20(0.04) | 0.19(0.05) 0.20(0.05) 0.16(0.05)\u2218"})
# Table 5.3 (c, d): the same numbers against R. For. (oDT + Median); only the marks differ,
# kept here per data set for the columns Random Forest, R. For. (Median), R. For. (oDT)
T53_MARKS_VS_ODT_MEDIAN = {
    "error": {"Balance": (MARK_WORSE, MARK_WORSE, MARK_WORSE)},
    "mae": {"ERA": (MARK_WORSE, MARK_WORSE, ""), "Balance": (MARK_WORSE, MARK_WORSE, MARK_WORSE)}}
